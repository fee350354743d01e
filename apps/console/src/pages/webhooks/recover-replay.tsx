// Recover and replay (docs/webhooks.md#health-disabling-and-recovery): send again every failed delivery
// made since a time, or the happenings of a window as new deliveries; each answers how many it queued.
import { FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { graphql } from '../../graphql';
import { ChangeButton, Field } from '../../ui/controls';
import { Alert } from '../../ui/state';
import { useChangeRight } from '../../viewer';
import { ReplayProgress } from './replay-progress';

const RECOVER = graphql(`
  mutation RecoverDeliveries($endpointId: ID!, $since: DateTime!) {
    recoverDeliveries(endpointId: $endpointId, since: $since)
  }
`);

const REPLAY = graphql(`
  mutation ReplayEvents($endpointId: ID!, $since: DateTime!, $until: DateTime!) {
    replayEvents(endpointId: $endpointId, since: $since, until: $until)
  }
`);

/** A datetime-local value (the reader's own time zone) as the instant the service takes. */
const instantOf = (local: string) => new Date(local).toISOString();

const queued = (count: number) => `${count} ${count === 1 ? 'delivery' : 'deliveries'} queued.`;

function Queued({ count }: { count: number | undefined }) {
  if (count === undefined) return null;
  return (
    <p className="notice" role="status">
      {queued(count)}
    </p>
  );
}

export function Recover({ endpointId, onQueued }: { endpointId: string; onQueued: () => void }) {
  const right = useChangeRight();
  const [since, setSince] = useState('');
  const [result, recover] = useMutation(RECOVER);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if ((await recover({ endpointId, since: instantOf(since) })).data) onQueued();
  };
  return (
    <form onSubmit={submit} aria-label="Recover failed deliveries">
      <p>Sends every failed delivery of this address made since then again, in order, at a bounded rate.</p>
      <div className="filters">
        <Field
          label="Since"
          type="datetime-local"
          required
          value={since}
          disabled={!right.allowed}
          onChange={(e) => setSince(e.target.value)}
        />
        <ChangeButton type="submit" disabled={result.fetching}>
          Recover
        </ChangeButton>
      </div>
      <Alert refused={refusalOf(result.error)} />
      <Queued count={result.fetching ? undefined : result.data?.recoverDeliveries} />
    </form>
  );
}

export function Replay({ endpointId, onQueued }: { endpointId: string; onQueued: () => void }) {
  const right = useChangeRight();
  const [span, setSpan] = useState({ from: '', until: '' });
  const [result, replay] = useMutation(REPLAY);
  const [asked, setAsked] = useState(0);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if ((await replay({ endpointId, since: instantOf(span.from), until: instantOf(span.until) })).data) {
      setAsked((n) => n + 1);
      onQueued();
    }
  };
  return (
    <form onSubmit={submit} aria-label="Replay a window">
      <p>
        Sends the happenings of the window (from included, until excluded) again as new deliveries, after live ones;
        happenings are kept 30 days unless the deployment keeps them longer (OUTBOX_RETENTION_DAYS).
      </p>
      <div className="filters">
        <Field
          label="From"
          type="datetime-local"
          required
          value={span.from}
          disabled={!right.allowed}
          onChange={(e) => setSpan({ ...span, from: e.target.value })}
        />
        <Field
          label="Until"
          type="datetime-local"
          required
          value={span.until}
          disabled={!right.allowed}
          onChange={(e) => setSpan({ ...span, until: e.target.value })}
        />
        <ChangeButton type="submit" disabled={result.fetching}>
          Replay
        </ChangeButton>
      </div>
      <Alert refused={refusalOf(result.error)} />
      <Queued count={result.fetching ? undefined : result.data?.replayEvents} />
      <ReplayProgress endpointId={endpointId} asked={asked} />
    </form>
  );
}
