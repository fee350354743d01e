// The delivery log (docs/webhooks.md#delivery-retries-and-the-log): the last twenty deliveries, newest
// first, one dense row each (time, type, person by email, state, attempts, last answer), a row opened for
// its body and every attempt, and Retry on any delivery whose last attempt failed, also while it is still
// pending (docs/decisions.md#retry-on-any-failed-attempt). While a delivery is pending the log is read again
// every few seconds, so attempts appear as they are made.
import { useEffect } from 'react';
import { useMutation } from 'urql';
import { Link } from 'wouter';
import { refusalOf } from '../../client';
import { FragmentOf, graphql, readFragment, ResultOf } from '../../graphql';
import { ChangeButton } from '../../ui/controls';
import { LogRow, LogTable, ShortTime, StateBadge } from '../../ui/log-table';
import { Alert, Empty } from '../../ui/state';

export const DELIVERY_ENTRY = graphql(`
  fragment DeliveryEntry on Delivery {
    id
    type
    state
    attemptCount
    createdAt
    nextAttemptAt
    body
    person {
      id
      email
      name
    }
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
type Delivery = ResultOf<typeof DELIVERY_ENTRY>;
type Attempt = Delivery['attempts'][number];

export const DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;

/** Six attempts in all (docs/webhooks.md#delivery-retries-and-the-log); a manual Retry may add more. */
const SCHEDULED_ATTEMPTS = 6;

const RETRY = graphql(`
  mutation RetryDelivery($id: ID!) {
    retryDelivery(id: $id) {
      id
      state
    }
  }
`);

const POLL_MS = 2000;

/** Reads again every few seconds while any delivery is pending (attempts still to come). */
export function useRefreshWhilePending(states: readonly string[], refresh: () => void) {
  const pending = states.includes('pending');
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [pending, refresh]);
}

export const deliveryStates = (entries: readonly Entry[] | undefined) =>
  (entries ?? []).map((entry) => readFragment(DELIVERY_ENTRY, entry).state);

const succeeded = (attempt: Attempt) => attempt.status != null && attempt.status >= 200 && attempt.status < 300;

/** Retry is offered once an attempt failed and no later one succeeded, and on a delivery failed unsent. */
function retryable(delivery: Delivery): boolean {
  const last = delivery.attempts.at(-1);
  return last ? !succeeded(last) : delivery.state === 'failed';
}

/** The last attempt's answer in a few words: its status and the start of its body, or why there was none. */
export function LastAnswer({ delivery }: { delivery: Delivery }) {
  const last = delivery.attempts.at(-1);
  if (!last) return <span className="muted">not sent yet</span>;
  const text = last.status == null ? (last.error ?? 'no answer') : (last.bodyExcerpt ?? '');
  return (
    <span title={last.error ?? last.bodyExcerpt ?? undefined}>
      {last.status != null ? <strong className={succeeded(last) ? 'good' : 'bad'}>{last.status}</strong> : null} {text}
    </span>
  );
}

function Retry({ id, onRetried }: { id: string; onRetried: () => void }) {
  const [result, retry] = useMutation(RETRY);
  return (
    <>
      <ChangeButton
        type="button"
        className="secondary"
        disabled={result.fetching}
        aria-label={`Retry ${id}`}
        onClick={async () => {
          if ((await retry({ id })).data) onRetried();
        }}
      >
        Retry
      </ChangeButton>
      <Alert refused={refusalOf(result.error)} />
    </>
  );
}

/** Every attempt, first first, with the answer it received. */
function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return <Empty>No attempt yet.</Empty>;
  return (
    <table>
      <caption className="muted table-caption">Attempts of {delivery.id}, first first</caption>
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
              <ShortTime value={attempt.startedAt} />
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

function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Details({ delivery }: { delivery: Delivery }) {
  return (
    <>
      <p className="muted">
        <code>{delivery.id}</code>
        {delivery.nextAttemptAt ? (
          <>
            {' '}
            · next attempt <ShortTime value={delivery.nextAttemptAt} />
          </>
        ) : null}
      </p>
      <h3>Body sent (the same bytes on every attempt)</h3>
      {/* A long body scrolls inside its box: focusable, so the keyboard can scroll it too. */}
      <pre role="region" aria-label="Body sent" tabIndex={0}>
        {prettyBody(delivery.body)}
      </pre>
      <h3>Attempts and answers</h3>
      <Attempts delivery={delivery} />
    </>
  );
}

/** The person the body named, by email; a link to them unless it was a test body. */
function PersonCell({ delivery }: { delivery: Delivery }) {
  const person = delivery.person;
  if (!person) return <span className="muted">nobody</span>;
  const shown = person.email ?? person.name ?? 'no email';
  if (delivery.type === 'test') return <span className="muted">{shown} (test)</span>;
  return <Link href={`/people/${encodeURIComponent(person.id)}`}>{shown}</Link>;
}

function DeliveryRow({ entry, onChanged }: { entry: Entry; onChanged: () => void }) {
  const delivery = readFragment(DELIVERY_ENTRY, entry);
  return (
    <LogRow
      what={delivery.id}
      columns={7}
      cells={
        <>
          <td>
            <ShortTime value={delivery.createdAt} />
          </td>
          <td className="type">{delivery.type}</td>
          <td className="person">
            <PersonCell delivery={delivery} />
          </td>
          <td>
            <StateBadge state={delivery.state} />
          </td>
          <td className="number">
            {delivery.attemptCount}
            <span className="muted">/{Math.max(SCHEDULED_ATTEMPTS, delivery.attemptCount)}</span>
          </td>
          <td className="answer">
            <LastAnswer delivery={delivery} />
          </td>
          <td>{retryable(delivery) ? <Retry id={delivery.id} onRetried={onChanged} /> : null}</td>
        </>
      }
    >
      {() => <Details delivery={delivery} />}
    </LogRow>
  );
}

/** Every delivery newest first, as the service answers them. */
export function DeliveryLog({ entries, onChanged }: { entries: readonly Entry[]; onChanged: () => void }) {
  return (
    <LogTable label="Deliveries" head={['Time', 'Type', 'Person', 'State', 'Attempts', 'Last answer', 'Action']}>
      {entries.map((entry) => (
        <DeliveryRow key={readFragment(DELIVERY_ENTRY, entry).id} entry={entry} onChanged={onChanged} />
      ))}
    </LogTable>
  );
}
