// The Limits section of Settings (docs/operations.md#limits): each rate limit's figure per ten minutes, whether the
// operator set it, and how close each key came in the last day (its fullest ten-minute window). Read-only: only the
// operator moves a figure.
import { useQuery } from 'urql';
import { graphql, ResultOf } from '../../graphql';
import { Section } from '../../ui/page';
import { Empty, Loaded } from '../../ui/state';
import { Time } from '../../ui/time';

const LIMITS = graphql(`
  query WorkspaceLimits {
    workspace {
      id
      limits {
        limit
        perTenMinutes
        isDefault
      }
      limitUsage {
        limit
        key
        keyHint
        used
        perTenMinutes
        share
        refused
        at
      }
    }
  }
`);

type Usage = ResultOf<typeof LIMITS>['workspace']['limitUsage'][number];

/** What each limit counts, in the words of docs/operations.md#limits. */
const COUNTS: Record<string, string> = {
  server_posts: 'Events and messages from servers, per secret key',
  tool_calls: 'Tool door calls, per key or connection',
  automation_starts: "Posts to an automation's address, per address",
  website_subscribe: 'Website signups, per visitor',
  website_identify: 'Website identifies, per visitor',
  website_event: 'Website events, per visitor',
  website_support: 'Website support posts, per visitor',
};

const percent = (share: number) => `${Math.round(share * 100)}%`;

function whoOf(row: Usage): string {
  if (row.keyHint) return row.keyHint;
  if (row.key === 'visitors') return 'The busiest visitor';
  return row.limit === 'automation_starts' ? `Automation ${row.key}` : row.key;
}

function UsageTable({ rows }: { rows: Usage[] }) {
  if (rows.length === 0) return <Empty>No key came near a limit in the last day: nothing was posted.</Empty>;
  return (
    <table>
      <caption className="muted">How close each key came in the last day: its fullest ten-minute window</caption>
      <thead>
        <tr>
          <th scope="col">Limit</th>
          <th scope="col">Key</th>
          <th scope="col" className="number">
            Fullest window
          </th>
          <th scope="col" className="number">
            Of its limit
          </th>
          <th scope="col" className="number">
            Refused
          </th>
          <th scope="col">Window began</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.limit} ${row.key}`}>
            <td>{row.limit}</td>
            <td>{whoOf(row)}</td>
            <td className="number">
              {row.used} of {row.perTenMinutes}
            </td>
            <td className="number">
              <meter min={0} max={1} value={row.share} aria-label={`${row.limit} ${whoOf(row)}`} /> {percent(row.share)}
            </td>
            <td className="number">{row.refused}</td>
            <td>
              <Time value={row.at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function LimitsSection() {
  const [result] = useQuery({ query: LIMITS, requestPolicy: 'cache-and-network' });
  return (
    <Section title="Limits">
      <Loaded result={result} what="Loading the limits">
        {({ workspace }) => (
          <>
            <table>
              <caption className="muted">
                Calls allowed per ten minutes; the operator sets a workspace&apos;s own
              </caption>
              <thead>
                <tr>
                  <th scope="col">Limit</th>
                  <th scope="col">Counts</th>
                  <th scope="col" className="number">
                    Per ten minutes
                  </th>
                  <th scope="col">Set by</th>
                </tr>
              </thead>
              <tbody>
                {workspace.limits.map((l) => (
                  <tr key={l.limit}>
                    <td>{l.limit}</td>
                    <td>{COUNTS[l.limit] ?? ''}</td>
                    <td className="number">{l.perTenMinutes.toLocaleString('en')}</td>
                    <td>{l.isDefault ? 'Default' : 'The operator'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <UsageTable rows={workspace.limitUsage} />
          </>
        )}
      </Loaded>
    </Section>
  );
}
