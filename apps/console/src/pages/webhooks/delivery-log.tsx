// The delivery log (docs/webhooks.md#delivery-retries-and-the-log): the last twenty deliveries,
// newest first, every attempt with the answer it received, and Retry on a failed delivery. While a
// delivery is pending the log is read again every few seconds, so attempts appear as they are made.
import { useEffect } from 'react';
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { FragmentOf, graphql, readFragment, ResultOf } from '../../graphql';
import { ChangeButton } from '../../ui/controls';
import { Alert, Empty } from '../../ui/state';
import { Time } from '../../ui/time';

export const DELIVERY_ENTRY = graphql(`
  fragment DeliveryEntry on Delivery {
    id
    type
    state
    attemptCount
    createdAt
    nextAttemptAt
    attempts {
      number
      startedAt
      status
      durationMs
      error
      bodyExcerpt
    }
  }
`);

type Entry = FragmentOf<typeof DELIVERY_ENTRY>;

const RETRY = graphql(`
  mutation RetryDelivery($id: ID!) {
    retryDelivery(id: $id) {
      id
      state
    }
  }
`);

const POLL_MS = 2000;

/** Reads the log again every few seconds while any delivery is pending (attempts still to come). */
export function useRefreshWhilePending(entries: Entry[] | undefined, refresh: () => void) {
  const pending = (entries ?? []).some((entry) => readFragment(DELIVERY_ENTRY, entry).state === 'pending');
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [pending, refresh]);
}

function StateBadge({ state }: { state: string }) {
  const tone = state === 'succeeded' ? 'good' : state === 'failed' ? 'bad' : '';
  return <span className={`badge ${tone}`}>{state}</span>;
}

function Retry({ id, onRetried }: { id: string; onRetried: () => void }) {
  const [result, retry] = useMutation(RETRY);
  return (
    <div className="retry">
      <ChangeButton
        type="button"
        disabled={result.fetching}
        onClick={async () => {
          if ((await retry({ id })).data) onRetried();
        }}
      >
        Retry
      </ChangeButton>
      <Alert refused={refusalOf(result.error)} />
    </div>
  );
}

function Attempts({ delivery }: { delivery: ResultOf<typeof DELIVERY_ENTRY> }) {
  if (delivery.attempts.length === 0) return <Empty>No attempt yet.</Empty>;
  return (
    <table>
      <caption className="muted">Attempts of {delivery.id}, first first</caption>
      <thead>
        <tr>
          <th scope="col" className="number">
            Attempt
          </th>
          <th scope="col">Started</th>
          <th scope="col" className="number">
            Status
          </th>
          <th scope="col" className="number">
            Duration
          </th>
          <th scope="col">Error</th>
          <th scope="col">Answer (first 500 characters)</th>
        </tr>
      </thead>
      <tbody>
        {delivery.attempts.map((attempt) => (
          <tr key={attempt.number}>
            <td className="number">{attempt.number}</td>
            <td>
              <Time value={attempt.startedAt} />
            </td>
            <td className="number">{attempt.status ?? <span className="muted">no answer</span>}</td>
            <td className="number">{attempt.durationMs == null ? '' : `${attempt.durationMs} ms`}</td>
            <td>{attempt.error ?? ''}</td>
            <td>{attempt.bodyExcerpt ? <code>{attempt.bodyExcerpt}</code> : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DeliveryItem({ entry, onChanged }: { entry: Entry; onChanged: () => void }) {
  const delivery = readFragment(DELIVERY_ENTRY, entry);
  return (
    <li className="delivery">
      <h3>
        <span className="type">{delivery.type}</span> <StateBadge state={delivery.state} />{' '}
        <code className="muted">{delivery.id}</code>
      </h3>
      <dl className="facts">
        <dt>Attempts</dt>
        <dd>{delivery.attemptCount}</dd>
        <dt>Created</dt>
        <dd>
          <Time value={delivery.createdAt} />
        </dd>
        <dt>Next attempt</dt>
        <dd>
          {delivery.nextAttemptAt ? <Time value={delivery.nextAttemptAt} /> : <span className="muted">none</span>}
        </dd>
      </dl>
      {delivery.state === 'failed' ? <Retry id={delivery.id} onRetried={onChanged} /> : null}
      <Attempts delivery={delivery} />
    </li>
  );
}

/** Every delivery newest first, as the service answers them. */
export function DeliveryLog({ entries, onChanged }: { entries: Entry[]; onChanged: () => void }) {
  if (entries.length === 0) return <Empty>No deliveries yet: Send a test to see one here.</Empty>;
  return (
    <ol className="deliveries" aria-label="Deliveries">
      {entries.map((entry) => (
        <DeliveryItem key={readFragment(DELIVERY_ENTRY, entry).id} entry={entry} onChanged={onChanged} />
      ))}
    </ol>
  );
}
