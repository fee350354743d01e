// The Segment-compatible routes (docs/rest.md#segments-http-tracking-api) with the other libraries that speak
// Segment's HTTP Tracking API, each pointed at the api as Segment's own is in segment.e2e-spec.ts: RudderStack's
// (@rudderstack/rudder-sdk-node, which stamps its own clock in originalTimestamp beside the caller's timestamp,
// and gzips) and Customer.io's (@customerio/cdp-analytics-node). A backfilled call lands when it happened.
import { Analytics as CustomerIo } from '@customerio/cdp-analytics-node';
import RudderAnalytics from '@rudderstack/rudder-sdk-node';
import { useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t, {}, 'all');
const THREE_DAYS_MS = 3 * 24 * 3_600_000;

/** The one event of that account_id: its type and when it happened. */
async function eventOf(accountId: string): Promise<{ type: string; occurred_at: Date }[]> {
  return t.db.query(
    `SELECT e.type, e.occurred_at FROM events e
       JOIN identities i ON i.workspace_id = e.workspace_id AND i.person_id = e.person_id AND i.kind = 'account_id'
      WHERE e.workspace_id = $1 AND i.value = $2 AND e.type <> 'stage_changed'`,
    [ws.workspace.id, accountId],
  );
}

it("RudderStack's library: a track backfilled three days lands at its timestamp, not at the library's clock", async () => {
  const happened = new Date(Date.now() - THREE_DAYS_MS);
  const rudder = new RudderAnalytics(ws.secretKey, { dataPlaneUrl: t.url, flushAt: 1, logLevel: 'error' });
  const failures: unknown[] = [];
  await new Promise<void>((resolve) =>
    rudder.track({ userId: 'rudder-1', event: 'Report Built', timestamp: happened, properties: { n: 1 } }, () =>
      resolve(),
    ),
  );
  await rudder.flush((error) => error && failures.push(error));
  expect(failures).toEqual([]);
  expect(await eventOf('rudder-1')).toEqual([{ type: 'report_built', occurred_at: happened }]);
});

it("Customer.io's library: a track backfilled three days lands at its timestamp", async () => {
  const happened = new Date(Date.now() - THREE_DAYS_MS);
  const customerIo = new CustomerIo({ writeKey: ws.secretKey, host: t.url, maxEventsInBatch: 1 });
  const failures: unknown[] = [];
  customerIo.on('error', (error) => failures.push(error));
  customerIo.track({ userId: 'cio-1', event: 'Order Completed', timestamp: happened, properties: { revenue: 12 } });
  await customerIo.closeAndFlush({ timeout: 10_000 });
  expect(failures).toEqual([]);
  expect(await eventOf('cio-1')).toEqual([{ type: 'purchase', occurred_at: happened }]);
});
