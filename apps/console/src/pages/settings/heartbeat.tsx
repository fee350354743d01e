// The heartbeat view (docs/graphql.md#activity-and-charts): the last week of posts from the website and from servers,
// counted by minute, action, answer and origin; no bodies, no addresses (the service keeps only counts).
// The range lives in the URL (?range=hour|day; the week by default), so the view can be bookmarked.
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { useSearchParams } from 'wouter';
import { graphql, ResultOf } from '../../graphql';
import { LineChart, Series } from '../../ui/line-chart';
import { Section } from '../../ui/page';
import { Empty, Loaded } from '../../ui/state';
import { Time } from '../../ui/time';
import { Checkbox } from '../../ui/checkbox';

const HEARTBEAT = graphql(`
  query Heartbeat($since: DateTime) {
    heartbeat(since: $since) {
      minute
      action
      answer
      origin
      count
    }
  }
`);

type Row = ResultOf<typeof HEARTBEAT>['heartbeat'][number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RANGES = {
  hour: { label: 'Last hour', ms: HOUR, bucket: MINUTE, per: 'minute' },
  day: { label: 'Last day', ms: 24 * HOUR, bucket: HOUR, per: 'hour' },
  week: { label: 'Last week', ms: 7 * 24 * HOUR, bucket: HOUR, per: 'hour' },
} as const;
type Range = keyof typeof RANGES;
const isRange = (value: string | null): value is Range => value === 'hour' || value === 'day' || value === 'week';
const PAGE_ROWS = 100;

/** Posts per bucket (minute or hour) summed over the rows, one series per answer, every bucket answered. */
function seriesByAnswer(rows: Row[], since: number, now: number, bucket: number): Series[] {
  const start = Math.floor(since / bucket) * bucket;
  const count = Math.floor(now / bucket) - start / bucket + 1;
  const byAnswer = new Map<string, number[]>();
  for (const row of rows) {
    const at = Math.floor((Date.parse(row.minute) - start) / bucket);
    if (at < 0 || at >= count) continue;
    const values = byAnswer.get(row.answer) ?? new Array<number>(count).fill(0);
    values[at] += row.count;
    byAnswer.set(row.answer, values);
  }
  const total = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return [...byAnswer]
    .sort(([, a], [, b]) => total(b) - total(a))
    .map(([key, values]) => ({
      key,
      points: values.map((value, i) => ({ at: new Date(start + i * bucket).toISOString(), value })),
    }));
}

function AnswerTotals({ series, label }: { series: Series[]; label: string }) {
  return (
    <table className="totals">
      <caption className="muted">Posts by answer, {label.toLowerCase()}</caption>
      <thead>
        <tr>
          <th scope="col">Answer</th>
          <th scope="col" className="number">
            Posts
          </th>
        </tr>
      </thead>
      <tbody>
        {series.map((s) => (
          <tr key={s.key}>
            <td>{s.key}</td>
            <td className="number">{s.points.reduce((sum, p) => sum + p.value, 0)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function HeartbeatRows({ rows }: { rows: Row[] }) {
  const [shown, setShown] = useState(PAGE_ROWS);
  return (
    <>
      <table>
        <caption className="muted">Posts by minute, action, answer and origin, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Minute</th>
            <th scope="col">Action</th>
            <th scope="col">Answer</th>
            <th scope="col">Origin</th>
            <th scope="col" className="number">
              Count
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, shown).map((row) => (
            <tr key={`${row.minute}|${row.action}|${row.answer}|${row.origin}`}>
              <td>
                <Time value={row.minute} />
              </td>
              <td className="type">{row.action}</td>
              <td>{row.answer}</td>
              <td>{row.origin}</td>
              <td className="number">{row.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > shown ? (
        <div className="pager">
          <span className="muted">
            {shown} of {rows.length} rows
          </span>
          <button type="button" className="secondary" onClick={() => setShown(shown + PAGE_ROWS)}>
            Show more rows
          </button>
        </div>
      ) : null}
    </>
  );
}

function HeartbeatView({ rows, range, since, now }: { rows: Row[]; range: Range; since: number; now: number }) {
  const { label, bucket, per } = RANGES[range];
  const series = useMemo(() => seriesByAnswer(rows, since, now, bucket), [rows, since, now, bucket]);
  if (rows.length === 0) return <Empty>No posts from the website or servers in the {label.toLowerCase()}.</Empty>;
  const posts = rows.reduce((sum, row) => sum + row.count, 0);
  return (
    <>
      <p>
        {posts} {posts === 1 ? 'post' : 'posts'} in the {label.toLowerCase()}; the chart shows posts per {per} by
        answer.
      </p>
      <LineChart series={series} />
      <AnswerTotals series={series} label={label} />
      <HeartbeatRows rows={rows} />
    </>
  );
}

function RangeChoice({ range, onChoose }: { range: Range; onChoose: (range: Range) => void }) {
  return (
    <fieldset className="choices range">
      <legend>Range</legend>
      {(Object.keys(RANGES) as Range[]).map((r) => (
        <Checkbox
          key={r}
          type="radio"
          name="heartbeat-range"
          label={RANGES[r].label}
          checked={range === r}
          onChange={() => onChoose(r)}
        />
      ))}
    </fieldset>
  );
}

export function HeartbeatSection() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('range');
  const range: Range = isRange(asked) ? asked : 'week';
  const [now, setNow] = useState(() => Date.now());
  const since = now - RANGES[range].ms;
  const variables = useMemo(() => ({ since: new Date(since).toISOString() }), [since]);
  const [result] = useQuery({ query: HEARTBEAT, variables });
  const choose = (next: Range) => {
    setNow(Date.now());
    setParams((prev) => {
      const changed = new URLSearchParams(prev);
      if (next === 'week') changed.delete('range');
      else changed.set('range', next);
      return changed;
    });
  };
  const refresh = (
    <button type="button" className="secondary" onClick={() => setNow(Date.now())} disabled={result.fetching}>
      Refresh
    </button>
  );
  return (
    <Section title="Heartbeat" actions={refresh}>
      <p className="hint">
        Posts from the website and from servers, counted by minute, action, answer and origin. No bodies and no
        addresses are kept.
      </p>
      <RangeChoice range={range} onChoose={choose} />
      <Loaded result={result} what="Loading the heartbeat">
        {(data) => <HeartbeatView rows={data.heartbeat} range={range} since={since} now={now} />}
      </Loaded>
    </Section>
  );
}
