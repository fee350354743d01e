// An automation's latest runs as a dense table (docs/console.md#logs), read in the automation's own query
// (never one request per run): when, what started it, the person by email, the status, the steps run and
// the last log line; a row opened shows the whole log. Run status: running, waiting, finished or failed.
import { Link } from 'wouter';
import { FragmentOf, graphql, readFragment, ResultOf } from '../../graphql';
import { LogRow, LogTable, ShortTime, StateBadge } from '../../ui/log-table';

export const RUN_FIELDS = graphql(`
  fragment AutomationRunFields on AutomationRun {
    id
    status
    startedAt
    finishedAt
    stepCount
    stepsDone
    trigger {
      kind
      event
      stage
      list
      segment
    }
    person {
      id
      email
      name
    }
    log {
      at
      line
    }
  }
`);

export const RUN_STATES = ['running', 'waiting', 'finished', 'failed'] as const;

type Run = ResultOf<typeof RUN_FIELDS>;

/** What started the run, in the trigger's own words (its event, stage or list when it names one). */
function startedBy(trigger: Run['trigger']): string {
  const detail = trigger.event ?? trigger.stage ?? trigger.list ?? trigger.segment;
  return detail ? `${trigger.kind} ${detail}` : trigger.kind;
}

function Person({ run }: { run: Run }) {
  if (!run.person) return <span className="muted">nobody</span>;
  return (
    <Link href={`/people/${encodeURIComponent(run.person.id)}`}>
      {run.person.email ?? run.person.name ?? 'no email'}
    </Link>
  );
}

function Details({ run }: { run: Run }) {
  return (
    <>
      <p className="muted">
        <code>{run.id}</code> · started <ShortTime value={run.startedAt} />
        {' · '}
        {run.finishedAt ? (
          <>
            ended <ShortTime value={run.finishedAt} />
          </>
        ) : (
          'not ended yet'
        )}
      </p>
      <h3>Log</h3>
      <ol className="run-log">
        {run.log.map((entry, i) => (
          <li key={i}>
            <ShortTime value={entry.at} /> {entry.line}
          </li>
        ))}
      </ol>
    </>
  );
}

function RunRow({ entry }: { entry: FragmentOf<typeof RUN_FIELDS> }) {
  const run = readFragment(RUN_FIELDS, entry);
  return (
    <LogRow
      what={run.id}
      columns={6}
      cells={
        <>
          <td>
            <ShortTime value={run.startedAt} />
          </td>
          <td className="type">{startedBy(run.trigger)}</td>
          <td className="person">
            <Person run={run} />
          </td>
          <td>
            <StateBadge state={run.status} />
          </td>
          <td className="number">
            {run.stepsDone}
            <span className="muted">/{run.stepCount}</span>
          </td>
          <td className="answer" title={run.log.at(-1)?.line}>
            {run.log.at(-1)?.line ?? ''}
          </td>
        </>
      }
    >
      {() => <Details run={run} />}
    </LogRow>
  );
}

export function Runs({ runs }: { runs: readonly FragmentOf<typeof RUN_FIELDS>[] }) {
  return (
    <LogTable label="Runs" head={['Started', 'Trigger', 'Person', 'Status', 'Steps', 'Last line']}>
      {runs.map((run) => (
        <RunRow key={readFragment(RUN_FIELDS, run).id} entry={run} />
      ))}
    </LogTable>
  );
}
