// A funnel (docs/graphql.md#funnels-and-retention): the people who did its steps in order, each later step
// within the days asked of step 1, step 1 in the range, optionally only a segment's members; a bar per step
// (presentational) and the same numbers as a table, each step's conversion its share of step 1.
import { useQuery } from 'urql';
import { graphql, ResultOf } from '../../graphql';
import { Field, Select } from '../../ui/controls';
import { Page } from '../../ui/page';
import { Empty, Failed, Loaded, Loading } from '../../ui/state';
import { FunnelQuestion, funnelInput, funnelOf, MAX_STEPS, percent } from './cohorts';
import { EVENT_NAMES, EventName, EventOptions } from './event-options';
import { AskChange, RangeFields } from './question-form';
import { useAsk } from './ask';
import { ChartViews, SegmentSelect } from './views';
import './charts.css';

const FUNNEL = graphql(`
  query Funnel($input: FunnelInput!) {
    funnel(input: $input) {
      steps {
        event
        people
        conversion
      }
    }
  }
`);

type Step = ResultOf<typeof FUNNEL>['funnel']['steps'][number];

const NUMBER = new Intl.NumberFormat('en');

function Steps({ question, names, ask }: { question: FunnelQuestion; names: readonly EventName[]; ask: AskChange }) {
  const set = (steps: string[]) => ask({ steps: steps.join(',') || null });
  return (
    <fieldset className="plain filters">
      <legend className="visually-hidden">Steps</legend>
      {question.steps.map((step, i) => (
        <div key={i} className="step">
          <Select
            label={`Step ${i + 1}`}
            value={step}
            onChange={(e) => set(question.steps.map((s, j) => (j === i ? e.target.value : s)))}
          >
            <option value="">Choose an event</option>
            <EventOptions value={step} names={names} />
          </Select>
          {question.steps.length > 2 ? (
            <button type="button" className="secondary" onClick={() => set(question.steps.filter((_, j) => j !== i))}>
              Remove step {i + 1}
            </button>
          ) : null}
        </div>
      ))}
      {question.steps.length < MAX_STEPS ? (
        <button type="button" className="secondary" onClick={() => set([...question.steps, ''])}>
          Add a step
        </button>
      ) : null}
    </fieldset>
  );
}

function FunnelForm({
  question,
  names,
  ask,
}: {
  question: FunnelQuestion;
  names: readonly EventName[];
  ask: AskChange;
}) {
  return (
    <form className="question" aria-label="Funnel" onSubmit={(e) => e.preventDefault()}>
      <Steps question={question} names={names} ask={ask} />
      <div className="filters">
        <Field
          label="Later steps within (days)"
          type="number"
          min={1}
          max={366}
          value={question.withinDays}
          hint="Of step 1; empty: any time after it."
          onChange={(e) => ask({ within: e.target.value || null })}
        />
        <RangeFields question={question} ask={ask} />
        <SegmentSelect value={question.segment} onChange={(segment) => ask({ segment })} />
      </div>
    </form>
  );
}

function Bars({ steps }: { steps: readonly Step[] }) {
  return (
    <ol className="funnel" aria-hidden="true">
      {steps.map((step, i) => (
        <li key={i}>
          <span>
            {i + 1}. {step.event}: {NUMBER.format(step.people)} ({percent(step.conversion)})
          </span>
          <span className="bar">
            <span style={{ width: `${Math.round(step.conversion * 1000) / 10}%` }} />
          </span>
        </li>
      ))}
    </ol>
  );
}

function FunnelTable({ steps, caption }: { steps: readonly Step[]; caption: string }) {
  return (
    <div className="chart-table" role="region" aria-label="The numbers" tabIndex={0}>
      <table>
        <caption className="table-caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Event</th>
            <th scope="col" className="number">
              People
            </th>
            <th scope="col" className="number">
              Conversion (of step 1)
            </th>
          </tr>
        </thead>
        <tbody>
          {steps.map((step, i) => (
            <tr key={i}>
              <th scope="row">{i + 1}</th>
              <td>{step.event}</td>
              <td className="number">{NUMBER.format(step.people)}</td>
              <td className="number">{percent(step.conversion)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Answer({ question }: { question: FunnelQuestion }) {
  const [result] = useQuery({ query: FUNNEL, variables: { input: funnelInput(question) } });
  if (result.error) return <Failed error={result.error} />;
  if (!result.data || result.fetching) return <Loading what="Asking the events" />;
  const { steps } = result.data.funnel;
  const range = `${question.from} to ${question.to} (UTC)`;
  const caption = `People who did ${question.steps.join(', then ')}, step 1 from ${range}`;
  if (!steps[0]?.people) return <Empty>Nobody did step 1 ({question.steps[0]}) in that range.</Empty>;
  return (
    <>
      <Bars steps={steps} />
      <FunnelTable steps={steps} caption={caption} />
    </>
  );
}

export function FunnelPage() {
  const [params, ask] = useAsk();
  const question = funnelOf(params);
  const [names] = useQuery({ query: EVENT_NAMES });
  return (
    <Page title="Funnel">
      <ChartViews />
      <Loaded result={names} what="Loading event names">
        {(data) => <FunnelForm question={question} names={data.eventNames} ask={ask} />}
      </Loaded>
      {question.steps.every(Boolean) ? <Answer question={question} /> : <Empty>Choose an event for every step.</Empty>}
    </Page>
  );
}
