// Charts (docs/graphql.md#activity-and-charts): a question asked of the workspace's events (event, measure,
// interval, range, breakdown), kept in the URL, answered as a line chart and the same numbers as a table;
// its other views are a funnel and retention.
import { useQuery } from 'urql';
import { graphql } from '../graphql';
import { LineChart } from '../ui/line-chart';
import { Page } from '../ui/page';
import { Empty, Failed, Loaded, Loading } from '../ui/state';
import { ChartTable } from './charts/chart-table';
import { EVENT_NAMES } from './charts/event-options';
import { chartInput, Question, questionInWords, questionOf } from './charts/question';
import { QuestionForm } from './charts/question-form';
import { useAsk } from './charts/ask';
import { ChartViews } from './charts/views';
import './charts/charts.css';

const CHART = graphql(`
  query Chart($input: ChartInput!) {
    chart(input: $input) {
      series {
        key
        points {
          at
          value
        }
      }
    }
  }
`);

function Answer({ question }: { question: Question }) {
  const [result] = useQuery({ query: CHART, variables: { input: chartInput(question) } });
  if (result.error) return <Failed error={result.error} />;
  if (!result.data || result.fetching) return <Loading what="Asking the events" />;
  const { series } = result.data.chart;
  const caption = questionInWords(question);
  if (!series.some((s) => s.points.some((p) => p.value !== 0)))
    return <Empty>Nothing to chart: {caption} is 0 in every bucket.</Empty>;
  return (
    <>
      <LineChart series={series} />
      <ChartTable series={series} interval={question.interval} caption={caption} />
    </>
  );
}

export function ChartsPage() {
  const [params, ask] = useAsk();
  const question = questionOf(params);
  const [names] = useQuery({ query: EVENT_NAMES });
  return (
    <Page title="Charts">
      <ChartViews />
      <Loaded result={names} what="Loading event names">
        {(data) => <QuestionForm question={question} names={data.eventNames} ask={ask} />}
      </Loaded>
      {question.event ? <Answer question={question} /> : <Empty>Choose an event to chart.</Empty>}
    </Page>
  );
}
