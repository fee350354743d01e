// The chart's question as controls; every change goes to the URL (a new history entry), so the URL
// keeps the question and back and forward step through the questions asked.
import { Field, Select } from '../../ui/controls';
import { EventName, EventOptions } from './event-options';
import { BREAKDOWNS, INTERVALS, MEASURES, Question, RANGES } from './question';

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

function EventSelect({ value, names, ask }: { value: string; names: readonly EventName[]; ask: AskChange }) {
  return (
    <Select label="Event" value={value} onChange={(e) => ask({ event: e.target.value || null })}>
      <option value="">Choose an event</option>
      <EventOptions value={value} names={names} />
    </Select>
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

export function QuestionForm({
  question,
  names,
  ask,
}: {
  question: Question;
  names: readonly EventName[];
  ask: AskChange;
}) {
  return (
    <form className="filters" aria-label="Question" onSubmit={(e) => e.preventDefault()}>
      <EventSelect value={question.event} names={names} ask={ask} />
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
