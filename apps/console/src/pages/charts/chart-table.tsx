// The chart's numbers as a table (the chart itself is aria-hidden): a row per bucket, a column per
// series (the event's name; with a breakdown, the event and the first-touch value, or (none)).
import type { LabelledSeries } from './events-chart';
import { bucketName } from './question';

const NUMBER = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export function ChartTable({
  series,
  interval,
  caption,
}: {
  series: readonly LabelledSeries[];
  interval: string;
  caption: string;
}) {
  const buckets = series[0]?.points.map((p) => p.at) ?? [];
  return (
    <div className="chart-table" role="region" aria-label="The numbers" tabIndex={0}>
      <table>
        <caption className="table-caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Bucket (UTC)</th>
            {series.map((s) => (
              <th key={s.label} scope="col" className="number">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {buckets.map((at, row) => (
            <tr key={at}>
              <th scope="row">
                <time dateTime={at}>{bucketName(at, interval)}</time>
              </th>
              {series.map((s) => (
                <td key={s.label} className="number">
                  {NUMBER.format(s.points[row]?.value ?? 0)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
