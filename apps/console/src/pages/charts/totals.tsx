// Each charted event's total over the range and its change against the period just before
// (docs/console.md#charts); distinct people cannot be added up across buckets, so for them the average
// per bucket, against the period before's.
import { changeInWords } from '../home/figures';

type Answer = ReadonlyArray<{ key: string; points: ReadonlyArray<{ at: string; value: number }> }>;

export interface Answered {
  event: string;
  current: Answer;
  previous: Answer;
}

const NUMBER = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

function figure(series: Answer, measure: string): number {
  const total = series.reduce((sum, s) => sum + s.points.reduce((n, p) => n + p.value, 0), 0);
  if (measure !== 'people') return total;
  const buckets = series[0]?.points.length ?? 0;
  return buckets ? total / buckets : 0;
}

/** One line per event: reserved before answers come (min-height by the number of events), so nothing moves. */
export function Totals({
  answers,
  events,
  measure,
  interval,
  before,
}: {
  answers: Answered[] | null;
  events: string[];
  measure: string;
  interval: string;
  before: string;
}) {
  const what = measure === 'people' ? `average per ${interval}` : 'total';
  return (
    <ul className="chart-totals" aria-label="Totals" style={{ minHeight: `${events.length * 1.6}rem` }}>
      {(answers ?? []).map((answer) => {
        const now = figure(answer.current, measure);
        const then = figure(answer.previous, measure);
        return (
          <li key={answer.event}>
            <strong>{answer.event}</strong>: {NUMBER.format(now)} {what},{' '}
            <span className="change">{changeInWords(now, then)}</span> against {NUMBER.format(then)} {before}
          </li>
        );
      })}
    </ul>
  );
}
