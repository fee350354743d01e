// An automation's latest runs with their log lines, read in the automation's own query (never one
// request per run). Run status: running, waiting, finished or failed.
import { Link } from 'wouter';
import { FragmentOf, graphql, readFragment } from '../../graphql';
import { Empty } from '../../ui/state';
import { Time } from '../../ui/time';

export const RUN_FIELDS = graphql(`
  fragment AutomationRunFields on AutomationRun {
    id
    status
    startedAt
    finishedAt
    person {
      id
    }
    log {
      at
      line
    }
  }
`);

const BADGE: Record<string, string> = { finished: 'badge good', failed: 'badge bad' };

function RunRow({ run }: { run: FragmentOf<typeof RUN_FIELDS> }) {
  const shown = readFragment(RUN_FIELDS, run);
  return (
    <tr>
      <td>
        {shown.person ? (
          <Link href={`/people/${encodeURIComponent(shown.person.id)}`}>{shown.person.id}</Link>
        ) : (
          <span className="muted">nobody</span>
        )}
      </td>
      <td>
        <span className={BADGE[shown.status] ?? 'badge'}>{shown.status}</span>
      </td>
      <td>
        <Time value={shown.startedAt} />
      </td>
      <td>{shown.finishedAt ? <Time value={shown.finishedAt} /> : <span className="muted">not yet</span>}</td>
      <td>
        <ol className="run-log">
          {shown.log.map((entry, i) => (
            <li key={i}>
              <Time value={entry.at} /> {entry.line}
            </li>
          ))}
        </ol>
      </td>
    </tr>
  );
}

export function Runs({ runs }: { runs: readonly FragmentOf<typeof RUN_FIELDS>[] }) {
  if (runs.length === 0) return <Empty>No runs yet. Only a running automation starts runs.</Empty>;
  return (
    <table>
      <caption className="muted table-caption">The latest runs, newest first (at most 20)</caption>
      <thead>
        <tr>
          <th scope="col">Person</th>
          <th scope="col">Status</th>
          <th scope="col">Started</th>
          <th scope="col">Finished</th>
          <th scope="col">Log</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <RunRow key={readFragment(RUN_FIELDS, run).id} run={run} />
        ))}
      </tbody>
    </table>
  );
}
