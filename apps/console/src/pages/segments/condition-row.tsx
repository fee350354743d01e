// One condition of a segment's definition as controls (docs/graphql.md#segments): what it tests, the
// controls of that kind, whether it is negated, and the refusal that names it, inside its own group.
import { ReactNode } from 'react';
import { useQuery } from 'urql';
import { Refused } from '../../client';
import { graphql } from '../../graphql';
import { Checkbox } from '../../ui/checkbox';
import { Field, Select } from '../../ui/controls';
import { STAGES } from '../../ui/stage';
import { Alert } from '../../ui/state';
import { EVENT_NAMES, EventName, EventOptions } from '../charts/event-options';
import { FIELD_TESTS, Kind, KINDS, newRow, Row, TOUCHES } from './definition';

export interface Choices {
  events: readonly EventName[];
  lists: readonly { address: string; name: string }[];
}

type Change = (changes: Partial<Row>) => void;

function Options({ choices }: { choices: [string, string][] }) {
  return (
    <>
      {choices.map(([value, words]) => (
        <option key={value} value={value}>
          {words}
        </option>
      ))}
    </>
  );
}

function StageBoxes({ row, change }: { row: Row; change: Change }) {
  const toggle = (stage: string, on: boolean) =>
    change({ stages: on ? [...row.stages, stage] : row.stages.filter((s) => s !== stage) });
  return (
    <fieldset className="plain stages">
      <legend>Any of the stages</legend>
      {STAGES.map(([value, name]) => (
        <Checkbox
          key={value}
          label={name}
          checked={row.stages.includes(value)}
          onChange={(e) => toggle(value, e.target.checked)}
        />
      ))}
    </fieldset>
  );
}

function ListChoice({ row, change, choices }: { row: Row; change: Change; choices: Choices }) {
  const known = choices.lists.some((l) => l.address === row.name);
  return (
    <Select label="List" value={row.name} onChange={(e) => change({ name: e.target.value })}>
      <option value="">Choose a list</option>
      {row.name && !known ? <option value={row.name}>{row.name}</option> : null}
      {choices.lists.map((list) => (
        <option key={list.address} value={list.address}>
          {list.name} ({list.address})
        </option>
      ))}
    </Select>
  );
}

const TYPED = 'Numbers and true/false match as such; "quoted" is text.';

function FieldTest({ row, change }: { row: Row; change: Change }) {
  const valued = row.test !== 'exists' && row.test !== 'missing';
  return (
    <>
      <Field label="Field name" value={row.name} onChange={(e) => change({ name: e.target.value })} />
      <Select label="Test" value={row.test} onChange={(e) => change({ test: e.target.value })}>
        <Options choices={FIELD_TESTS} />
      </Select>
      {valued ? (
        <Field
          label={row.test === 'in' ? 'Values' : 'Value'}
          value={row.value}
          hint={`${row.test === 'in' ? 'Comma-separated. ' : ''}${TYPED}`}
          onChange={(e) => change({ value: e.target.value })}
        />
      ) : null}
    </>
  );
}

function EventTest({ row, change, choices }: { row: Row; change: Change; choices: Choices }) {
  return (
    <>
      <Select label="Event" value={row.name} onChange={(e) => change({ name: e.target.value })}>
        <option value="">Choose an event</option>
        <EventOptions value={row.name} names={choices.events} />
      </Select>
      <Select label="How often" value={row.test} onChange={(e) => change({ test: e.target.value })}>
        <option value="atLeast">at least</option>
        <option value="never">never</option>
      </Select>
      {row.test === 'atLeast' ? (
        <Field
          label="Times"
          type="number"
          min={1}
          placeholder="1"
          value={row.atLeast}
          onChange={(e) => change({ atLeast: e.target.value })}
        />
      ) : null}
      <Field
        label="Within the last days"
        type="number"
        min={1}
        value={row.withinDays}
        hint="Empty: ever."
        onChange={(e) => change({ withinDays: e.target.value })}
      />
    </>
  );
}

function Controls({ row, change, choices }: { row: Row; change: Change; choices: Choices }): ReactNode {
  switch (row.kind) {
    case 'stage':
      return <StageBoxes row={row} change={change} />;
    case 'list':
      return <ListChoice row={row} change={change} choices={choices} />;
    case 'field':
      return <FieldTest row={row} change={change} />;
    case 'event':
      return <EventTest row={row} change={change} choices={choices} />;
    case 'engaged':
      return (
        <Select label="Engaged" value={row.test} onChange={(e) => change({ test: e.target.value })}>
          <option value="true">yes</option>
          <option value="false">no</option>
        </Select>
      );
    case 'firstTouch':
      return (
        <>
          <Select label="First-touch" value={row.test} onChange={(e) => change({ test: e.target.value })}>
            <Options choices={TOUCHES} />
          </Select>
          <Field label="Equals" value={row.value} onChange={(e) => change({ value: e.target.value })} />
        </>
      );
  }
}

export function ConditionRow({
  row,
  index,
  choices,
  refused,
  change,
  remove,
}: {
  row: Row;
  index: number;
  choices: Choices;
  refused: Refused | null;
  change: Change;
  remove: () => void;
}) {
  const kind = (next: Kind) => change({ ...newRow(next), not: row.not });
  return (
    <fieldset className="condition">
      <legend>Condition {index + 1}</legend>
      <div className="filters">
        <Select label="Kind" value={row.kind} onChange={(e) => kind(e.target.value as Kind)}>
          <Options choices={KINDS} />
        </Select>
        <Controls row={row} change={change} choices={choices} />
        <Checkbox
          label="Not (people who do not match)"
          checked={row.not}
          onChange={(e) => change({ not: e.target.checked })}
        />
        <button type="button" className="secondary" onClick={remove}>
          Remove condition {index + 1}
        </button>
      </div>
      <Alert refused={refused} />
    </fieldset>
  );
}

const LISTS = graphql(`
  query SegmentFormLists {
    lists {
      id
      address
      name
    }
  }
`);

/** What the form offers: the events the workspace has (as the chart page offers them) and its lists. */
export function useChoices(): Choices {
  const [events] = useQuery({ query: EVENT_NAMES });
  const [lists] = useQuery({ query: LISTS });
  return { events: events.data?.eventNames ?? [], lists: lists.data?.lists ?? [] };
}
