// Retention (docs/graphql.md#funnels-and-retention): people in cohorts by the period of their first start
// event, and per period since, the share who did the back event; optionally only a segment's members. A
// grid shaded by share (presentational) and the same numbers as a table.
import { CSSProperties } from 'react';
import { useQuery } from 'urql';
import { graphql, ResultOf } from '../../graphql';
import { Field, Select } from '../../ui/controls';
import { Page } from '../../ui/page';
import { Empty, Failed, Loaded, Loading } from '../../ui/state';
import { useAsk } from './ask';
import { percent, RETENTION_INTERVALS, RetentionQuestion, retentionInput, retentionOf } from './cohorts';
import { EVENT_NAMES, EventName, EventOptions } from './event-options';
import { AskChange, Choices } from './question-form';
import { bucketName } from './question';
import { ChartViews, SegmentSelect } from './views';
import './charts.css';

const RETENTION = graphql(`
  query Retention($input: RetentionInput!) {
    retention(input: $input) {
      cohorts {
        start
        people
        shares
      }
    }
  }
`);

type Cohort = ResultOf<typeof RETENTION>['retention']['cohorts'][number];

const NUMBER = new Intl.NumberFormat('en');

function EventChoice({
  label,
  value,
  names,
  onChange,
}: {
  label: string;
  value: string;
  names: readonly EventName[];
  onChange: (name: string) => void;
}) {
  return (
    <Select label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Choose an event</option>
      <EventOptions value={value} names={names} />
    </Select>
  );
}

function RetentionForm({
  question,
  names,
  ask,
}: {
  question: RetentionQuestion;
  names: readonly EventName[];
  ask: AskChange;
}) {
  return (
    <form className="filters" aria-label="Retention" onSubmit={(e) => e.preventDefault()}>
      <EventChoice label="Start event" value={question.start} names={names} onChange={(start) => ask({ start })} />
      <EventChoice label="Back event" value={question.back} names={names} onChange={(back) => ask({ back })} />
      <Select label="Interval" value={question.interval} onChange={(e) => ask({ interval: e.target.value })}>
        <Choices choices={RETENTION_INTERVALS} />
      </Select>
      <Field
        label="Periods"
        type="number"
        min={1}
        max={52}
        value={question.periods}
        onChange={(e) => ask({ periods: e.target.value || null })}
      />
      <SegmentSelect value={question.segment} onChange={(segment) => ask({ segment })} />
    </form>
  );
}

/** A cell's shade: the accent's tint by share, light enough that dark text stays readable on it. */
const shade = (share: number): CSSProperties => ({ background: `rgba(37, 99, 235, ${0.06 + 0.59 * share})` });

function Grid({ cohorts, interval }: { cohorts: readonly Cohort[]; interval: string }) {
  const periods = Math.max(...cohorts.map((c) => c.shares.length));
  return (
    <div
      className="retention-grid"
      aria-hidden="true"
      style={{ gridTemplateColumns: `9rem 4rem repeat(${periods}, 1fr)` }}
    >
      <span className="head">Cohort</span>
      <span className="head">People</span>
      {Array.from({ length: periods }, (_, i) => (
        <span key={i} className="head">
          {i}
        </span>
      ))}
      {cohorts.map((cohort) => [
        <span key={`${cohort.start}-name`}>{bucketName(cohort.start, interval)}</span>,
        <span key={`${cohort.start}-people`}>{NUMBER.format(cohort.people)}</span>,
        ...Array.from({ length: periods }, (_, i) =>
          i < cohort.shares.length ? (
            <span key={`${cohort.start}-${i}`} style={shade(cohort.shares[i])}>
              {percent(cohort.shares[i])}
            </span>
          ) : (
            <span key={`${cohort.start}-${i}`} />
          ),
        ),
      ])}
    </div>
  );
}

function RetentionTable({
  cohorts,
  interval,
  caption,
}: {
  cohorts: readonly Cohort[];
  interval: string;
  caption: string;
}) {
  const periods = Math.max(...cohorts.map((c) => c.shares.length));
  return (
    <div className="chart-table" role="region" aria-label="The numbers" tabIndex={0}>
      <table>
        <caption className="table-caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Cohort (UTC)</th>
            <th scope="col" className="number">
              People
            </th>
            {Array.from({ length: periods }, (_, i) => (
              <th key={i} scope="col" className="number">
                {interval} {i}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {cohorts.map((cohort) => (
            <tr key={cohort.start}>
              <th scope="row">
                <time dateTime={cohort.start}>{bucketName(cohort.start, interval)}</time>
              </th>
              <td className="number">{NUMBER.format(cohort.people)}</td>
              {Array.from({ length: periods }, (_, i) => (
                <td key={i} className="number">
                  {i < cohort.shares.length ? percent(cohort.shares[i]) : ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Answer({ question }: { question: RetentionQuestion }) {
  const [result] = useQuery({ query: RETENTION, variables: { input: retentionInput(question) } });
  if (result.error) return <Failed error={result.error} />;
  if (!result.data || result.fetching) return <Loading what="Asking the events" />;
  const { cohorts } = result.data.retention;
  if (!cohorts.some((c) => c.people > 0))
    return <Empty>Nobody did {question.start} for the first time in these periods.</Empty>;
  const caption =
    `Share of each cohort (by first ${question.start}) who did ${question.back}, ` + `per ${question.interval} since`;
  return (
    <>
      <Grid cohorts={cohorts} interval={question.interval} />
      <RetentionTable cohorts={cohorts} interval={question.interval} caption={caption} />
    </>
  );
}

export function RetentionPage() {
  const [params, ask] = useAsk();
  const question = retentionOf(params);
  const [names] = useQuery({ query: EVENT_NAMES });
  return (
    <Page title="Retention">
      <ChartViews />
      <Loaded result={names} what="Loading event names">
        {(data) => <RetentionForm question={question} names={data.eventNames} ask={ask} />}
      </Loaded>
      {question.start && question.back ? (
        <Answer question={question} />
      ) : (
        <Empty>Choose a start event and a back event.</Empty>
      )}
    </Page>
  );
}
