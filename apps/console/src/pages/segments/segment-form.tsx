// A segment's name and definition, for a new segment and for changing one (docs/graphql.md#segments). A
// refusal shows beside what it names: the name, the definition's JSON (and its condition), else the button.
import { FormEvent, ReactNode, useState } from 'react';
import { Refused } from '../../client';
import { ChangeButton, Field } from '../../ui/controls';
import { Alert } from '../../ui/state';
import { useChangeRight } from '../../viewer';
import { useChoices } from './condition-row';
import { DefinitionEditor, definitionToSend, fieldNamed, useDefinition } from './definition-editor';

export interface SegmentDraft {
  name: string;
  definition: unknown;
}

export function SegmentForm({
  initial,
  submitLabel,
  fetching,
  refused,
  onSubmit,
  children,
}: {
  initial?: SegmentDraft;
  submitLabel: string;
  fetching: boolean;
  refused: Refused | null;
  /** Sends the segment; true once it is saved (a new segment's form then starts again empty). */
  onSubmit: (draft: SegmentDraft) => Promise<boolean>;
  /** More controls, after the definition (a new segment's announce box). */
  children?: ReactNode;
}) {
  const right = useChangeRight();
  const choices = useChoices();
  const [name, setName] = useState(initial?.name ?? '');
  const definition = useDefinition(initial?.definition);
  const field = fieldNamed(refused);
  const placed = field === 'name' || field?.startsWith('definition');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const sent = definitionToSend(definition.state);
    if (sent === undefined) return;
    const saved = await onSubmit({ name: name.trim(), definition: sent });
    if (saved && !initial) {
      setName('');
      definition.reset();
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="segment-form">
      <fieldset disabled={!right.allowed} className="plain">
        <Field label="Name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
        <Alert refused={field === 'name' ? refused : null} />
        <DefinitionEditor
          definition={definition.state}
          setText={definition.setText}
          setDraft={definition.setDraft}
          choices={choices}
          refused={refused}
        />
        {children}
      </fieldset>
      <Alert refused={placed ? null : refused} />
      <ChangeButton type="submit" disabled={fetching || definition.state.syntax !== null}>
        {submitLabel}
      </ChangeButton>
    </form>
  );
}
