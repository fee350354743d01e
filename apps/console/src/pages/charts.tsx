// Charts (docs/console.md#charts, docs/graphql.md#activity-and-charts): a question asked of the workspace's
// events (one or more events, measure, interval, range, breakdown), kept in the URL, answered as a line per
// event (or per breakdown value) with each event's total against the period before, and the same numbers
// as a table; with no event named, the most frequent one of the last 30 days. Its other views are a funnel
// and retention.
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../graphql';
import { Page } from '../ui/page';
import { Empty, Failed, Loading } from '../ui/state';
import { ChartTable } from './charts/chart-table';
import { CHART_ANSWERS, chartVariables, labelledSeries, answersOf } from './charts/answers';
import { ChartBox, EventsChart } from './charts/events-chart';
import { EVENT_NAMES } from './charts/event-options';
import { previousDates, Question, questionInWords, questionOf } from './charts/question';
import { QuestionForm } from './charts/question-form';
import { useAsk } from './charts/ask';
import { Totals } from './charts/totals';
import { ChartViews } from './charts/views';
import './charts/charts.css';

const FREQUENT = graphql(`
  query ChartFirstEvent {
    frequentEvents(days: 30, first: 1) {
      name
    }
  }
`);

const DAY_MS = 86_400_000;

function Answer({ question }: { question: Question }) {
  const variables = useMemo(() => chartVariables(question), [question]);
  const [result] = useQuery({ query: CHART_ANSWERS, variables });
  const answers = useMemo(
    () => (result.data && !result.fetching ? answersOf(question, result.data) : null),
    [result.data, result.fetching, question],
  );
  const series = useMemo(() => (answers ? labelledSeries(answers, question.breakdown) : []), [answers, question]);
  const previous = previousDates(question);
  const days = Math.round((Date.parse(question.to) - Date.parse(question.from)) / DAY_MS) + 1;
  const caption = questionInWords(question);
  const range = `${question.from} to ${question.to} (UTC)`;
  const totals = (
    <Totals
      answers={answers}
      events={question.events}
      measure={question.measure}
      interval={question.interval}
      before={`in the ${days} days before (${previous.from} to ${previous.to})`}
    />
  );
  if (result.error)
    return (
      <>
        {totals}
        <ChartBox>
          <Failed error={result.error} />
        </ChartBox>
      </>
    );
  if (!answers)
    return (
      <>
        {totals}
        <ChartBox>
          <Loading what="Asking the events" />
        </ChartBox>
      </>
    );
  const empty = !series.some((s) => s.points.some((p) => p.value !== 0));
  return (
    <>
      {totals}
      {empty ? (
        <ChartBox>
          <Empty>Nothing to chart: {caption} is 0 in every bucket.</Empty>
        </ChartBox>
      ) : (
        <EventsChart series={series} interval={question.interval} range={range} />
      )}
      <ChartTable series={series} interval={question.interval} caption={caption} />
    </>
  );
}

export function ChartsPage() {
  const [params, ask] = useAsk();
  const asked = useMemo(() => questionOf(params), [params]);
  const [names] = useQuery({ query: EVENT_NAMES });
  const [frequent] = useQuery({ query: FREQUENT, pause: asked.events.length > 0 });
  const first = frequent.data?.frequentEvents[0]?.name;
  const question = useMemo(
    () => (asked.events.length || !first ? asked : { ...asked, events: [first] }),
    [asked, first],
  );
  const waiting = question.events.length === 0 && frequent.fetching;
  return (
    <Page title="Charts">
      <ChartViews />
      {names.error ? <Failed error={names.error} /> : null}
      <QuestionForm question={question} events={question.events} names={names.data?.eventNames ?? []} ask={ask} />
      {question.events.length ? (
        <Answer question={question} />
      ) : (
        <>
          <Totals answers={null} events={['']} measure={question.measure} interval={question.interval} before="" />
          <ChartBox>
            {frequent.error ? (
              <Failed error={frequent.error} />
            ) : waiting || !frequent.data ? (
              <Loading what="Finding the most frequent event" />
            ) : (
              <Empty>No events in the last 30 days yet: post one, or choose an event to chart.</Empty>
            )}
          </ChartBox>
        </>
      )}
    </Page>
  );
}
