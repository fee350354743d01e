// A live segment's segment_entered and segment_left, end to end (docs/webhooks.md#triggers-and-bodies,
// docs/graphql.md#automations): a post that moves a person into or out of a segment is one delivery of that type
// to an address that hears it, its data the segment's id and name, and one run of each automation whose
// trigger names that segment or none. Real receiver on 127.0.0.1, the real api and worker, PostgreSQL and Redis.
import { createHmac } from 'node:crypto';
import { eventually, useApp, useWorkspace } from './harness';
import { receiver } from './support/receiver';

const sign = (secret: string, raw: string) => 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const t = useApp({ worker: true });
const ws = useWorkspace(t);

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const answer = await t.gql(query, variables, ws.secretKey);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}
const post = async (body: unknown) => {
  const answer = await t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
  expect(answer.status).toBe(200);
};

/** A segment, once its first fill is over: only then does every entry and exit fire. */
async function segment(name: string, definition: unknown): Promise<{ id: string; name: string }> {
  const made = await gql('mutation($input: CreateSegmentInput!) { createSegment(input: $input) { id name } }', {
    input: { name, definition },
  });
  const { id } = made.createSegment;
  await eventually(
    async () => !(await gql('query($id: ID!) { segment(id: $id) { filling } }', { id })).segment.filling,
    20_000,
  );
  return { id, name };
}

async function hooks(triggers: string[]) {
  const r = await receiver();
  const made = await gql(
    'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
    { input: { url: r.url, triggers } },
  );
  return { r, secret: made.createWebhookEndpoint.secret as string };
}

/** A running automation with no steps: each run it starts finishes at once. */
async function running(name: string, trigger: Record<string, unknown>): Promise<string> {
  const made = await gql(
    `mutation($input: CreateAutomationInput!) {
      createAutomation(input: $input) { automation { id trigger { kind segment } } } }`,
    { input: { name, trigger, steps: [] } },
  );
  const { id, trigger: saved } = made.createAutomation.automation;
  expect(saved).toEqual({ kind: trigger.kind, segment: trigger.segment ?? null });
  await gql('mutation($id: ID!) { setAutomationStatus(id: $id, status: "running") { id } }', { id });
  return id;
}
const runsOf = async (id: string) =>
  (await gql('query($id: ID!) { automation(id: $id) { runs { status person { id } log { line } } } }', { id }))
    .automation.runs as Array<{ status: string; person: { id: string }; log: Array<{ line: string }> }>;

describe('segment_entered and segment_left', () => {
  it('a purchase enters a stage segment and leaves its opposite: one delivery each, its data the segment, and one run per automation that names it or none', async () => {
    const buyers = await segment('Buyers', { stage: ['purchaser', 'repeat'] });
    const others = await segment('Not buyers yet', { not: { stage: ['purchaser', 'repeat'] } });
    const { r, secret } = await hooks(['segment_entered', 'segment_left']);
    const enteredBuyers = await running('Welcome a buyer', { kind: 'segment_entered', segment: buyers.id });
    const leftOthers = await running('No longer waiting', { kind: 'segment_left', segment: others.id });
    const leftBuyers = await running('Lost a buyer', { kind: 'segment_left', segment: buyers.id });
    const enteredAny = await running('Any segment', { kind: 'segment_entered' });

    await post({ type: 'signup', email: 'ada@example.com' }); // enters Not buyers yet
    await eventually(async () => r.received.length === 1);
    await post({ type: 'purchase', email: 'ada@example.com', value: 49 }); // enters Buyers, leaves Not buyers yet
    await eventually(async () => r.received.length === 3);
    await post({ type: 'purchase', email: 'ada@example.com', value: 49 }); // a repeat buyer stays a buyer
    await eventually(async () => (await runsOf(enteredAny)).length === 2);
    await sleep(1_000);

    const bodies = r.received.map((x) => x.body);
    const summary = bodies.map((b) => `${b.type} ${b.data.segment.name}`).sort();
    expect(summary).toEqual([
      'segment_entered Buyers',
      'segment_entered Not buyers yet',
      'segment_left Not buyers yet',
    ]);
    const entered = bodies.find((b) => b.type === 'segment_entered' && b.data.segment.id === buyers.id);
    expect(Object.keys(entered)).toEqual(['id', 'type', 'at', 'workspace', 'record', 'data']);
    expect(entered.data).toEqual({ segment: { id: buyers.id, name: 'Buyers' } });
    expect(entered.record).toMatchObject({ kind: 'person', email: 'ada@example.com', stage: 'purchaser' });
    expect(entered.workspace).toEqual({ id: ws.workspace.id, slug: ws.workspace.slug });
    const left = bodies.find((b) => b.type === 'segment_left');
    expect(left.data).toEqual({ segment: { id: others.id, name: 'Not buyers yet' } });
    for (const x of r.received) {
      expect(x.headers['x-service-event']).toBe(x.body.type);
      expect(x.headers['x-service-signature']).toBe(sign(secret, x.raw));
    }

    const [welcomed] = await runsOf(enteredBuyers);
    expect(await runsOf(enteredBuyers)).toHaveLength(1);
    expect(welcomed).toMatchObject({ status: 'finished', person: { id: entered.record.id } });
    expect(welcomed.log[0].line).toBe(`started by segment_entered ${buyers.id}`);
    expect(await runsOf(leftOthers)).toHaveLength(1);
    expect((await runsOf(leftOthers))[0].log[0].line).toBe(`started by segment_left ${others.id}`);
    expect(await runsOf(leftBuyers)).toEqual([]);
    expect(await runsOf(enteredAny)).toHaveLength(2);
    await r.close();
  });

  it('a list segment: the unsubscribe that takes a person off the list is one segment_left', async () => {
    await gql('mutation { createList(input: {address: "news", name: "News"}) { id } }');
    const readers = await segment('Readers', { list: 'news' });
    const { r } = await hooks(['segment_left', 'event']);
    const gone = await running('A reader left', { kind: 'segment_left', segment: readers.id });

    await post({ type: 'subscribe', email: 'bo@example.com', list: 'news', consent: 'Yes, send me the news.' });
    await post({ type: 'unsubscribe', email: 'bo@example.com', list: 'news' });
    await eventually(async () => r.received.some((x) => x.body.type === 'segment_left'));
    await eventually(async () => (await runsOf(gone)).length === 1);
    await sleep(1_000);

    const left = r.received.filter((x) => x.body.type === 'segment_left').map((x) => x.body);
    expect(left).toHaveLength(1);
    expect(left[0].data).toEqual({ segment: { id: readers.id, name: 'Readers' } });
    expect(left[0].record).toMatchObject({ email: 'bo@example.com' });
    // The segment's own happenings are not events: the address that hears events gets the list's, not these.
    expect(r.received.filter((x) => x.body.type === 'segment_entered')).toEqual([]);
    expect(await runsOf(gone)).toHaveLength(1);
    await r.close();
  });

  it("an automation's segment must be one of the workspace's segments; only segment triggers take one", async () => {
    const mine = await segment('Mine', { stage: ['purchaser'] });
    const elsewhere = await t.workspace({});
    const theirs = await t.gql(
      'mutation($input: CreateSegmentInput!) { createSegment(input: $input) { id } }',
      { input: { name: 'Theirs', definition: { stage: ['purchaser'] } } },
      elsewhere.secretKey,
    );
    const refused = async (trigger: Record<string, unknown>) => {
      const answer = await t.gql(
        'mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } } }',
        { input: { name: 'x', trigger, steps: [] } },
        ws.secretKey,
      );
      return answer.errors && { code: answer.errors[0].extensions.code, message: answer.errors[0].message };
    };
    for (const segmentId of [theirs.data.createSegment.id, 'seg_nothing']) {
      const answer = await refused({ kind: 'segment_entered', segment: segmentId });
      expect(answer?.code).toBe('not_found');
      expect(answer?.message).toContain('trigger.segment');
    }
    expect((await refused({ kind: 'segment_left', segment: ' ' }))?.code).toBe('invalid_field');
    expect((await refused({ kind: 'stage_entered', segment: mine.id }))?.code).toBe('invalid_field');
    expect(await refused({ kind: 'segment_left', segment: mine.id })).toBeUndefined();
    expect(await refused({ kind: 'segment_entered' })).toBeUndefined();
  });
});
