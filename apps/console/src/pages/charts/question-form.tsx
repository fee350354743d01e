// The chart's question as controls; every change goes to the URL (a new history entry), so the URL
// keeps the question and back and forward step through the questions asked.
import { Field, Select } from '../../ui/controls';
import { EventName, EventOptions } from './event-options';
import { BREAKDOWNS, INTERVALS, MAX_EVENTS, MEASURES, Question, RANGES } from './question';

export type AskChange = (change: Record<string, string | null>) => void;

export function Choices({ choices }: { choices: [string, string][] }) {
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

/** One select per event charted, each with Remove when there are several, and Add an event. */
function EventsFields({ events, names, ask }: { events: string[]; names: readonly EventName[]; ask: AskChange }) {
  const askEvents = (next: string[]) => ask({ events: next.filter(Boolean).join(',') || null, event: null });
  const unused = names.find((n) => !events.includes(n.name));
  // Before the first event is known, one empty select holds its place, so nothing moves when it comes.
  const shown = events.length ? events : [''];
  return (
    <div className="chart-events" role="group" aria-label="Series">
      {shown.map((event, i) => (
        <div className="chart-event" key={i}>
          <Select
            label={events.length > 1 ? `Event ${i + 1}` : 'Event'}
            value={event}
            onChange={(e) => askEvents(events.map((old, j) => (j === i ? e.target.value : old)))}
          >
            {event ? null : <option value="">Choose an event</option>}
            <EventOptions value={event} names={names} />
          </Select>
          {events.length > 1 ? (
            <button
              type="button"
              className="secondary"
              aria-label={`Remove ${event}`}
              onClick={() => askEvents(events.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          ) : null}
        </div>
      ))}
      {events.length < MAX_EVENTS ? (
        <button
          type="button"
          className="secondary"
          disabled={!unused || events.length === 0}
          onClick={() => unused && askEvents([...events, unused.name])}
        >
          Add an event
        </button>
      ) : null}
    </div>
  );
}

export function RangeFields({ question, ask }: { question: Pick<Question, 'range' | 'from' | 'to'>; ask: AskChange }) {
  const chooseRange = (range: string) =>
    ask(range === 'custom' ? { range, from: question.from, to: question.to } : { range, from: null, to: null });
  return (
    <>
      <Select label="Range" value={question.range} onChange={(e) => chooseRange(e.target.value)}>
        <Choices choices={RANGES} />
      </Select>
      {question.range === 'custom' ? (
        <>
          <Field
            label="From (UTC)"
            type="date"
            required
            value={question.from}
            max={question.to}
            onChange={(e) => e.target.value && ask({ from: e.target.value })}
          />
          <Field
            label="To (UTC)"
            type="date"
            required
            value={question.to}
            min={question.from}
            onChange={(e) => e.target.value && ask({ to: e.target.value })}
          />
        </>
      ) : null}
    </>
  );
}

/** `events`: those charted (the question's, or the most frequent one when it names none). */
export function QuestionForm({
  question,
  events,
  names,
  ask,
}: {
  question: Question;
  events: string[];
  names: readonly EventName[];
  ask: AskChange;
}) {
  return (
    <form className="filters chart-question" aria-label="Question" onSubmit={(e) => e.preventDefault()}>
      <EventsFields events={events} names={names} ask={ask} />
      <Select label="Measure" value={question.measure} onChange={(e) => ask({ measure: e.target.value })}>
        <Choices choices={MEASURES} />
      </Select>
      <Select label="Interval" value={question.interval} onChange={(e) => ask({ interval: e.target.value })}>
        <Choices choices={INTERVALS} />
      </Select>
      <RangeFields question={question} ask={ask} />
      <Select label="Breakdown" value={question.breakdown} onChange={(e) => ask({ breakdown: e.target.value || null })}>
        <Choices choices={BREAKDOWNS} />
      </Select>
    </form>
  );
}
