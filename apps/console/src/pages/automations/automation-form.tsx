// The form that writes an automation (create, and edit on its own page): name, trigger and steps.
// A member sees it read-only, with the reason beside the button.
import { FormEvent, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { Refused } from '../../client';
import { graphql } from '../../graphql';
import { ChangeButton, Field } from '../../ui/controls';
import { Alert, Loaded } from '../../ui/state';
import { useChangeRight } from '../../viewer';
import { AutomationDraft, draftInput } from './draft';
import { StepsEditor } from './steps-editor';
import { TriggerFields } from './trigger-fields';

/** What a trigger or a step may name: events, lists, segments and templates, in one request. */
const CHOICES = graphql(`
  query AutomationChoices {
    eventNames {
      name
      builtIn
    }
    lists {
      id
      address
      name
    }
    segments {
      id
      name
    }
    templates {
      id
      name
    }
  }
`);

export type AutomationInput = ReturnType<typeof draftInput>;

interface AutomationFormProps {
  initial: AutomationDraft;
  submitLabel: string;
  busy: boolean;
  refused: Refused | null;
  onSubmit: (input: AutomationInput) => void;
}

export function AutomationForm({ initial, submitLabel, busy, refused, onSubmit }: AutomationFormProps) {
  const [choicesResult] = useQuery({
    query: CHOICES,
    context: useMemo(() => ({ additionalTypenames: ['List', 'Segment', 'Template'] }), []),
  });
  const [draft, setDraft] = useState(initial);
  const right = useChangeRight();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(draftInput(draft));
  };
  return (
    <Loaded result={choicesResult} what="Loading events, lists, segments and templates">
      {(choices) => (
        <form onSubmit={submit} className="automation-form">
          <fieldset disabled={!right.allowed} className="plain">
            <Field
              label="Name"
              required
              maxLength={200}
              value={draft.name}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            />
            <TriggerFields
              trigger={draft.trigger}
              choices={choices}
              onChange={(trigger) => setDraft({ ...draft, trigger })}
            />
            <StepsEditor steps={draft.steps} choices={choices} onChange={(steps) => setDraft({ ...draft, steps })} />
          </fieldset>
          <Alert refused={refused} />
          <ChangeButton type="submit" disabled={busy}>
            {busy ? 'Saving…' : submitLabel}
          </ChangeButton>
        </form>
      )}
    </Loaded>
  );
}
