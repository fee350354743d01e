// The trigger of an automation: its kind and the one field that kind needs (docs/graphql.md#automations).
import { Link } from 'wouter';
import { Select } from '../../ui/controls';
import { STAGES } from '../../ui/stage';
import { TriggerDraft, TriggerKind } from './draft';

interface TriggerChoices {
  eventNames: readonly { name: string; builtIn: boolean }[];
  lists: readonly { address: string; name: string }[];
  segments: readonly { id: string; name: string }[];
}

const KIND_OPTIONS: [TriggerKind, string][] = [
  ['webhook', 'Its start address is posted to (webhook)'],
  ['event', 'An event is recorded'],
  ['stage_entered', 'A person enters a stage'],
  ['subscribed', 'Someone subscribes to a list'],
  ['unsubscribed', 'Someone comes off a list'],
  ['segment_entered', 'A person enters a segment'],
  ['segment_left', 'A person leaves a segment'],
  ['person_erased', 'A person is erased (erase their copies elsewhere)'],
];

function EventField({
  value,
  choices,
  onChange,
}: {
  value: string;
  choices: TriggerChoices;
  onChange: (event: string) => void;
}) {
  const builtIn = choices.eventNames.filter((n) => n.builtIn);
  const custom = choices.eventNames.filter((n) => !n.builtIn);
  return (
    <Select label="Event" value={value} required onChange={(e) => onChange(e.target.value)}>
      <option value="">Choose an event</option>
      <optgroup label="Built-in">
        {builtIn.map((n) => (
          <option key={n.name}>{n.name}</option>
        ))}
      </optgroup>
      {custom.length ? (
        <optgroup label="Seen in this workspace">
          {custom.map((n) => (
            <option key={n.name}>{n.name}</option>
          ))}
        </optgroup>
      ) : null}
    </Select>
  );
}

function ListField({
  value,
  choices,
  onChange,
}: {
  value: string;
  choices: TriggerChoices;
  onChange: (list: string) => void;
}) {
  return (
    <>
      <Select label="List" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any list</option>
        {choices.lists.map((l) => (
          <option key={l.address} value={l.address}>
            {l.name} ({l.address})
          </option>
        ))}
      </Select>
      {choices.lists.length ? null : (
        <p className="hint">
          No lists yet: <Link href="/lists">create one on Lists</Link>, or keep “Any list”.
        </p>
      )}
    </>
  );
}

function SegmentField({
  value,
  choices,
  onChange,
}: {
  value: string;
  choices: TriggerChoices;
  onChange: (segment: string) => void;
}) {
  return (
    <>
      <Select label="Segment" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any segment</option>
        {choices.segments.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </Select>
      {choices.segments.length ? null : (
        <p className="hint">
          No segments yet: <Link href="/segments">create one on Segments</Link>, or keep “Any segment”.
        </p>
      )}
    </>
  );
}

export function TriggerFields({
  trigger,
  choices,
  onChange,
}: {
  trigger: TriggerDraft;
  choices: TriggerChoices;
  onChange: (trigger: TriggerDraft) => void;
}) {
  const set = (change: Partial<TriggerDraft>) => onChange({ ...trigger, ...change });
  return (
    <fieldset className="trigger">
      <legend>Trigger</legend>
      <Select label="Starts when" value={trigger.kind} onChange={(e) => set({ kind: e.target.value as TriggerKind })}>
        {KIND_OPTIONS.map(([kind, words]) => (
          <option key={kind} value={kind}>
            {words}
          </option>
        ))}
      </Select>
      {trigger.kind === 'event' ? (
        <EventField value={trigger.event} choices={choices} onChange={(event) => set({ event })} />
      ) : null}
      {trigger.kind === 'stage_entered' ? (
        <Select label="Stage" value={trigger.stage} onChange={(e) => set({ stage: e.target.value })}>
          <option value="">Any stage</option>
          {STAGES.map(([stage, name]) => (
            <option key={stage} value={stage}>
              {name}
            </option>
          ))}
        </Select>
      ) : null}
      {trigger.kind === 'subscribed' || trigger.kind === 'unsubscribed' ? (
        <ListField value={trigger.list} choices={choices} onChange={(list) => set({ list })} />
      ) : null}
      {trigger.kind === 'segment_entered' || trigger.kind === 'segment_left' ? (
        <SegmentField value={trigger.segment} choices={choices} onChange={(segment) => set({ segment })} />
      ) : null}
      {trigger.kind === 'webhook' ? (
        <p className="hint">
          The automation gets its own start address, shown on its page once saved. A post to it names the person and
          starts a run.
        </p>
      ) : null}
    </fieldset>
  );
}
