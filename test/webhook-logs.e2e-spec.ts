// The delivery log and the run log over GraphQL (docs/webhooks.md#delivery-retries-and-the-log,
// docs/graphql.md#automations): Retry of a delivery whose last attempt failed while it is still pending
// (docs/decisions.md#retry-on-any-failed-attempt), the state filters, who each delivery and run is about by
// email, and one delivery read by id. RETRY_UNIT_MS=8000 makes a minute eight seconds: after a failed first
// attempt the schedule waits 8 s, long enough to Retry before it on a busy machine.
import { eventually, useApp, useWorkspace } from './harness';
import { receiver } from './support/receiver';

const UNIT_MS = 8_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const t = useApp({ worker: true, env: { RETRY_UNIT_MS: String(UNIT_MS), WEBHOOK_DISABLE_AFTER_DAYS: '365' } });
const ws = useWorkspace(t);

async function gql(query: string, variables: Record<string, unknown> = {}, key = ws.secretKey) {
  const answer = await t.gql(query, variables, key);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}
const endpoint = async (url: string, triggers = ['event']) =>
  (
    await gql(
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
      {
        input: { url, triggers },
      },
    )
  ).createWebhookEndpoint.endpoint.id as string;
const DELIVERY = 'id state attemptCount nextAttemptAt type person { id email name } attempts { number status }';
const delivery = async (id: string) =>
  (await gql(`query($id: ID!) { webhookDelivery(id: $id) { ${DELIVERY} } }`, { id })).webhookDelivery;
const sendTest = async (endpointId: string) =>
  (await gql('mutation($id: ID!) { sendTestDelivery(endpointId: $id) { id } }', { id: endpointId })).sendTestDelivery
    .id as string;
const retry = (id: string) => gql('mutation($id: ID!) { retryDelivery(id: $id) { id state } }', { id });
const log = async (endpointId: string, state?: string) =>
  (
    (
      await gql(`query($state: String) { webhookEndpoints { id deliveries(state: $state) { ${DELIVERY} } } }`, {
        state,
      })
    ).webhookEndpoints as any[]
  ).find((e) => e.id === endpointId).deliveries as any[];
const firstAttemptFailed = (id: string) =>
  eventually(async () => {
    const d = await delivery(id);
    const failed = d.state === 'pending' && d.attempts.length === 1 && d.attempts[0].status === 500;
    // Until the due time read is the schedule's (the delivery and its attempts are two statements' reads).
    return failed && new Date(d.nextAttemptAt).getTime() > Date.now() && d;
  });

describe('Retry on a failed attempt, before the delivery has failed for good', () => {
  it('a pending delivery whose first attempt failed is sent again at once as attempt 2, with the same bytes and id; once it succeeds the schedule sends nothing more', async () => {
    const r = await receiver((n) => (n === 1 ? 500 : 200));
    const id = await sendTest(await endpoint(r.url));
    const pending = await firstAttemptFailed(id);
    expect(new Date(pending.nextAttemptAt).getTime()).toBeGreaterThan(Date.now());

    expect((await retry(id)).retryDelivery).toEqual({ id, state: 'pending' });
    const done = await eventually(async () => {
      const d = await delivery(id);
      return d.state === 'succeeded' && d;
    }, UNIT_MS - 500);
    expect(done.attemptCount).toBe(2);
    expect(done.attempts).toEqual([
      { number: 1, status: 500 },
      { number: 2, status: 200 },
    ]);
    expect(r.received).toHaveLength(2);
    expect(r.received[1].raw).toBe(r.received[0].raw);
    expect(r.received[1].headers['x-service-delivery']).toBe(id);

    await sleep(UNIT_MS + 1_000); // past the time the schedule had set for attempt 2
    expect(r.received).toHaveLength(2);
    await r.close();
  });

  it('a Retry that fails again counts as the next of the six attempts: the wait after it is the schedule’s for its number', async () => {
    const r = await receiver(() => 500);
    const id = await sendTest(await endpoint(r.url));
    await firstAttemptFailed(id);
    await retry(id);
    const after = await eventually(async () => {
      const d = await delivery(id);
      // The delivery and its attempts are read by two statements: a read between them can pair the Retry's due time
      // with the attempts after it, so the due time is read until it has moved past the second attempt.
      const settled = d.attempts.length === 2 && d.state === 'pending' && d.nextAttemptAt;
      return settled && r.received[1] && new Date(d.nextAttemptAt).getTime() > r.received[1].at && d;
    }, UNIT_MS - 500);
    expect(r.received).toHaveLength(2);
    // After attempt 2 the schedule waits 5 minutes (here 5 units), not the 1 it waited after attempt 1.
    expect(new Date(after.nextAttemptAt).getTime() - r.received[1].at).toBeGreaterThan(4 * UNIT_MS);
    await r.close();
  });
});

describe('The delivery log', () => {
  it('filters by state, and names the person of each delivery by email as the body did', async () => {
    const ok = await receiver(() => 200);
    const endpointId = await endpoint(ok.url);
    expect(
      (
        await t.request('POST', '/api/v1/events', {
          key: ws.secretKey,
          body: { type: 'signup', email: 'ada@example.com' },
        })
      ).status,
    ).toBe(200);
    const made = await eventually(async () => (await log(endpointId, 'succeeded')).length === 1 && log(endpointId));
    expect(made[0].person).toEqual({ id: expect.stringMatching(/^per_/), email: 'ada@example.com', name: null });
    const failed = await t.make.delivery(ws.workspace.id, endpointId, { type: 'test', state: 'failed', attempts: 6 });

    expect((await log(endpointId, 'failed')).map((d) => d.id)).toEqual([failed.id]);
    expect((await log(endpointId, 'succeeded')).map((d) => d.id)).toEqual([made[0].id]);
    expect(await log(endpointId, 'pending')).toEqual([]);
    expect((await log(endpointId)).map((d) => d.id)).toEqual([failed.id, made[0].id]);

    const refused = await t.gql('{ webhookEndpoints { deliveries(state: "retrying") { id } } }', {}, ws.secretKey);
    expect(refused.errors![0].extensions.code).toBe('invalid_field');
    expect(refused.errors![0].message).toMatch(/pending, succeeded, failed/);
    await ok.close();
  });

  it('one delivery is read by id within its own workspace only', async () => {
    const r = await receiver(() => 200);
    const id = await sendTest(await endpoint(r.url));
    await eventually(async () => (await delivery(id)).state === 'succeeded');
    expect((await delivery(id)).person).toEqual({ id: 'per_test', email: 'test@example.com', name: 'Test person' });
    const other = await t.workspace();
    const answer = await t.gql('query($id: ID!) { webhookDelivery(id: $id) { id } }', { id }, other.secretKey);
    expect(answer.errors![0].extensions.code).toBe('not_found');
    await r.close();
  });
});

describe('The run log', () => {
  const RUNS = `query($id: ID!, $status: String) { automation(id: $id) {
    runs(status: $status) { id status stepCount stepsDone trigger { kind event } person { id email } } } }`;

  it('filters runs by status and names their person by email', async () => {
    await gql('mutation { createTemplate(input: {name: "hello", subject: "Hello", body: "Hi"}) { id } }');
    const created = await gql(
      `mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } } }`,
      {
        input: {
          name: 'Greet',
          trigger: { kind: 'event', event: 'pageview' },
          steps: [{ kind: 'send_email', template: 'hello' }],
        },
      },
    );
    const id = created.createAutomation.automation.id as string;
    await gql('mutation($id: ID!) { setAutomationStatus(id: $id, status: "running") { id } }', { id });
    const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
    // A buyer may be emailed: the run finishes. A mere visitor may not: the run fails there.
    await post({ type: 'purchase', email: 'buyer@example.com', value: 10 });
    await post({ type: 'pageview', email: 'buyer@example.com' });
    await post({ type: 'pageview', email: 'visitor@example.com' });
    const runs = async (status?: string) => (await gql(RUNS, { id, status })).automation.runs as any[];
    await eventually(
      async () => (await runs()).filter((r) => r.status === 'finished' || r.status === 'failed').length === 2,
    );

    const [failed] = await runs('failed');
    expect(failed).toMatchObject({ person: { email: 'visitor@example.com' }, stepCount: 1, stepsDone: 1 });
    expect(failed.trigger).toEqual({ kind: 'event', event: 'pageview' });
    expect((await runs('finished')).map((r) => [r.person.email, r.stepsDone])).toEqual([['buyer@example.com', 1]]);
    expect(await runs('waiting')).toEqual([]);

    const refused = await t.gql(RUNS, { id, status: 'done' }, ws.secretKey);
    expect(refused.errors![0].extensions.code).toBe('invalid_field');
  });
});
