// A segment's definition edited two ways at once (docs/graphql.md#segments): the form's rows and the JSON
// beside them. A change to the form rewrites the JSON; a change to the JSON redraws the form when the form
// can show it, and else says why. What is sent is the JSON. A syntax error, and a refusal naming a part of
// the definition, show beside the JSON (and in the condition they name); others go where the page puts them.
import { useCallback, useId, useState } from 'react';
import { Refused } from '../../client';
import { Select } from '../../ui/controls';
import { Alert } from '../../ui/state';
import { Choices, ConditionRow } from './condition-row';
import { Combine, definitionOf, Draft, draftOf, newRow, Row, rowNamed } from './definition';

export interface Definition {
  /** The JSON as typed. */
  text: string;
  /** The form's rows: the JSON's when the form can show it, else the last it could. */
  draft: Draft;
  /** Why the form does not show the JSON (a syntax error, or a definition of more than one level). */
  unshown: string | null;
  /** The syntax error, when the JSON does not parse. */
  syntax: string | null;
}

const EMPTY: Draft = { combine: 'all', rows: [newRow()] };

function read(text: string, last: Draft): Definition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const syntax = `The JSON does not parse: ${(error as Error).message}.`;
    return { text, draft: last, unshown: 'Fix the JSON to edit it with the form.', syntax };
  }
  const draft = draftOf(parsed);
  return typeof draft === 'string'
    ? { text, draft: last, unshown: draft, syntax: null }
    : { text, draft, unshown: null, syntax: null };
}

const written = (draft: Draft) => JSON.stringify(definitionOf(draft), null, 2);

/** The definition's state, from a segment's definition (or one empty row for a new segment). */
export function useDefinition(initial?: unknown) {
  const [state, setState] = useState<Definition>(() =>
    initial === undefined ? read(written(EMPTY), EMPTY) : read(JSON.stringify(initial, null, 2), EMPTY),
  );
  const setText = useCallback((text: string) => setState((now) => read(text, now.draft)), []);
  const setDraft = useCallback(
    (draft: Draft) => setState({ text: written(draft), draft, unshown: null, syntax: null }),
    [],
  );
  const reset = useCallback(
    (definition?: unknown) => setState(read(JSON.stringify(definition ?? definitionOf(EMPTY), null, 2), EMPTY)),
    [],
  );
  return { state, setText, setDraft, reset };
}

/** The definition to send, or undefined while the JSON does not parse. */
export function definitionToSend(state: Definition): unknown {
  return state.syntax ? undefined : JSON.parse(state.text);
}

/** The part of the input a refusal names: its field, else the definition path or the name its sentence names. */
export function fieldNamed(refused: Refused | null): string | null {
  if (!refused) return null;
  if (refused.field) return refused.field;
  const quoted = /\bdefinition(?:\.[A-Za-z]+|\[\d+\])*/.exec(refused.message)?.[0];
  if (quoted) return quoted;
  return /^name\b|\bsegment named\b/.test(refused.message) ? 'name' : null;
}

function Rows({
  draft,
  setDraft,
  choices,
  refused,
}: {
  draft: Draft;
  setDraft: (d: Draft) => void;
  choices: Choices;
  refused: Refused | null;
}) {
  const named = rowNamed(fieldNamed(refused));
  const change = (index: number, changes: Partial<Row>) =>
    setDraft({ ...draft, rows: draft.rows.map((row, i) => (i === index ? { ...row, ...changes } : row)) });
  return (
    <>
      <Select
        label="People who match"
        value={draft.combine}
        onChange={(e) => setDraft({ ...draft, combine: e.target.value as Combine })}
      >
        <option value="all">all of these conditions</option>
        <option value="any">any of these conditions</option>
      </Select>
      {draft.rows.map((row, index) => (
        <ConditionRow
          key={index}
          row={row}
          index={index}
          choices={choices}
          refused={named === index ? refused : null}
          change={(changes) => change(index, changes)}
          remove={() => setDraft({ ...draft, rows: draft.rows.filter((_, i) => i !== index) })}
        />
      ))}
      <button
        type="button"
        className="secondary"
        onClick={() => setDraft({ ...draft, rows: [...draft.rows, newRow()] })}
      >
        Add a condition
      </button>
    </>
  );
}

export function DefinitionEditor({
  definition,
  setText,
  setDraft,
  choices,
  refused,
}: {
  definition: Definition;
  setText: (text: string) => void;
  setDraft: (draft: Draft) => void;
  choices: Choices;
  /** The API's refusal: shown here when it names the definition. */
  refused: Refused | null;
}) {
  const id = useId();
  const field = fieldNamed(refused);
  const aboutDefinition = field?.startsWith('definition') ? refused : null;
  return (
    <div className="definition">
      <fieldset className="conditions" disabled={definition.unshown !== null}>
        <legend>Conditions</legend>
        {definition.unshown ? <p className="reason">{definition.unshown}</p> : null}
        <Rows draft={definition.draft} setDraft={setDraft} choices={choices} refused={aboutDefinition} />
      </fieldset>
      <div className="field json">
        <label htmlFor={id}>Definition (JSON)</label>
        <textarea
          id={id}
          spellCheck={false}
          value={definition.text}
          aria-invalid={definition.syntax || aboutDefinition ? true : undefined}
          aria-describedby={`${id}-hint ${id}-error`}
          onChange={(e) => setText(e.target.value)}
        />
        <small id={`${id}-hint`} className="hint">
          Editing either side updates the other; the JSON is what is saved.
        </small>
        <div id={`${id}-error`}>
          {definition.syntax ? (
            <p className="alert" role="alert">
              {definition.syntax}
            </p>
          ) : (
            <Alert refused={aboutDefinition} />
          )}
        </div>
      </div>
    </div>
  );
}
