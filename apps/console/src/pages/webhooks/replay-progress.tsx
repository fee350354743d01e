// An address's replays (docs/webhooks.md#replaying-a-window): each as a bar of the deliveries sent over those the
// window makes, asked again every few seconds while one is queued or running, and at once after a new one.
import { useCallback, useEffect } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../graphql';
import { Time } from '../../ui/time';

const REPLAYS = graphql(`
  query WebhookReplays {
    webhookEndpoints {
      id
      replays {
        id
        state
        total
        done
        since
        until
        createdAt
      }
    }
  }
`);

const POLL_MS = 2000;
const COUNT = new Intl.NumberFormat('en');

/** `asked` changes when a replay was just queued, so the list is read again at once. */
export function ReplayProgress({ endpointId, asked }: { endpointId: string; asked: number }) {
  const [result, reexecute] = useQuery({ query: REPLAYS, requestPolicy: 'cache-and-network' });
  const again = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const replays = result.data?.webhookEndpoints.find((e) => e.id === endpointId)?.replays ?? [];
  const going = replays.some((r) => r.state !== 'done');
  useEffect(() => {
    if (asked > 0) again();
  }, [asked, again]);
  useEffect(() => {
    if (!going) return;
    const timer = setInterval(again, POLL_MS);
    return () => clearInterval(timer);
  }, [going, again]);
  if (replays.length === 0) return null;
  return (
    <ul className="replays" aria-label="Replays">
      {replays.map((r) => (
        <li key={r.id}>
          <progress max={Math.max(r.total, 1)} value={r.state === 'done' ? Math.max(r.total, 1) : r.done} />{' '}
          {COUNT.format(r.done)} of {COUNT.format(r.total)} sent ({r.state}), <Time value={r.since} /> to{' '}
          <Time value={r.until} />
        </li>
      ))}
    </ul>
  );
}
