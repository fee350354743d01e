// History starts no automation (docs/decisions.md#history-starts-no-automation): a Segment /v1/import,
// or an event whose occurred_at is more than the workspace's window before it arrives, is recorded
// (timeline, stage, first seen) but starts no run, whatever the trigger; each automation counts what it
// passed over; outgoing webhooks still hear it, with data.historical true. The real api and worker, a
// real SMTP server, PostgreSQL and Redis.
import { eventually, useApp, useWorkspace } from './harness';
import { allRelayed } from './support/outbox';
import { receiver } from './support/receiver';
import { postSegment } from './support/segment';
import { useSmtp } from './support/smtp';

const DAY_MS = 86_400_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const CREATE = `mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } } }`;
const STATUS = `mutation($id: ID!, $status: String!) { setAutomationStatus(id: $id, status: $status) { id } }`;
const AUTOMATION = `query($id: ID!) { automation(id: $id) { passedOverHistory runs { id status person { id } } } }`;
const PERSON = `query($email: String!) { person(email: $email) { id createdAt stage timeline { edges { node { type occurredAt } } } } }`;
const SETTINGS = `mutation($input: UpdateWorkspaceSettingsInput!) { updateWorkspaceSettings(input: $input) { historyWindowHours } }`;

const smtp = useSmtp();
const t = useApp({ worker: true, env: () => ({ SMTP_URL: smtp.url, EMAIL_FROM: 'Lifeline <hello@lifeline.test>' }) });
const ws = useWorkspace(t);

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const answer = await t.gql(query, variables, ws.secretKey);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}

/** The workspace's welcome email on signup, a stage automation, and an address hearing events and stages. */
async function setUp() {
  await gql('mutation($i: CreateTemplateInput!) { createTemplate(input: $i) { id } }', {
    i: { name: 'welcome', subject: 'Welcome aboard', body: 'Hello, glad you signed up.' },
  });
  const running = async (name: string, trigger: Record<string, unknown>, steps: unknown[] = []) => {
    const { automation } = (await gql(CREATE, { input: { name, trigger, steps } })).createAutomation;
    await gql(STATUS, { id: automation.id, status: 'running' });
    return automation.id as string;
  };
  const signup = await running('Welcome', { kind: 'event', event: 'signup' }, [
    { kind: 'send_email', template: 'welcome' },
  ]);
  const account = await running('Became an account', { kind: 'stage_entered', stage: 'account' });
  const hooks = await receiver();
  await gql('mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }', {
    input: { url: hooks.url, triggers: ['event', 'stage_entered'] },
  });
  return { signup, account, hooks };
}

const automation = async (id: string) => (await gql(AUTOMATION, { id })).automation;
const personOf = async (email: string) => (await gql(PERSON, { email })).person;
const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));

/** Everything relayed, and a moment more for a run's send_email step, had one started. */
async function settled() {
  await eventually(() => allRelayed(t.db));
  await sleep(1_500);
}

describe('history is recorded but starts no automation; webhooks hear it as historical', () => {
  it('a Segment /v1/import of a signup dated three months ago: recorded, first seen then, no run and no email', async () => {
    const { signup, account, hooks } = await setUp();
    const at = new Date(Date.now() - 90 * DAY_MS).toISOString();
    const imported = await postSegment(
      t.url,
      '/v1/import',
      {
        batch: [
          {
            type: 'track',
            event: 'Signed Up',
            userId: 'u-1',
            context: { traits: { email: 'old@example.com' } },
            timestamp: at,
            messageId: 'm-1',
          },
        ],
      },
      { key: ws.secretKey },
    );
    expect(imported.status).toBe(200);
    expect(imported.body.success).toBe(true);
    await settled();

    const person = await personOf('old@example.com');
    expect(person.stage).toBe('account'); // the stage moves as for any signup
    expect(person.timeline.edges.map((e: { node: { type: string } }) => e.node.type)).toContain('signup');
    expect(new Date(person.createdAt).toISOString()).toBe(at); // first seen is the event, not the import
    for (const id of [signup, account]) {
      const shown = await automation(id);
      expect(shown.runs).toEqual([]);
      expect(shown.passedOverHistory).toBe(1);
    }
    expect(mailsTo('old@example.com')).toHaveLength(0);

    const bodies = await eventually(async () => hooks.received.length >= 2 && hooks.received.map((r) => r.body));
    expect(bodies.map((b) => b.type).sort()).toEqual(['event', 'stage_entered']);
    for (const body of bodies) expect(body.data.historical).toBe(true);
    expect(bodies.find((b) => b.type === 'event').data).toMatchObject({ event: 'signup', occurred_at: at });
    await hooks.close();
  });

  it("POST /api/v1/events with an occurred_at past the workspace's window: no run, no email, first seen then", async () => {
    const { signup, hooks } = await setUp();
    const at = new Date(Date.now() - 3 * DAY_MS).toISOString();
    const posted = await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'signup', email: 'late@example.com', occurred_at: at },
    });
    expect(posted.body).toMatchObject({ ok: true, status: 'recorded' });
    await settled();
    const shown = await automation(signup);
    expect(shown.runs).toEqual([]);
    expect(shown.passedOverHistory).toBe(1);
    expect(mailsTo('late@example.com')).toHaveLength(0);
    expect(new Date((await personOf('late@example.com')).createdAt).toISOString()).toBe(at);
    const event = await eventually(async () => hooks.received.find((r) => r.body.type === 'event'));
    expect(event.body.data).toMatchObject({ event: 'signup', occurred_at: at, historical: true });
    await hooks.close();
  });

  it('a fresh signup still starts the run and sends the email, and its webhook carries no historical', async () => {
    const { signup, hooks } = await setUp();
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'signup', email: 'new@example.com' },
    });
    const [run] = await eventually(async () => {
      const runs = (await automation(signup)).runs;
      return runs.length === 1 && runs[0].status === 'finished' && runs;
    });
    expect(run.status).toBe('finished');
    await eventually(async () => mailsTo('new@example.com').length === 1);
    expect((await automation(signup)).passedOverHistory).toBe(0);
    const event = await eventually(async () => hooks.received.find((r) => r.body.type === 'event'));
    expect(event.body.data).not.toHaveProperty('historical');
    await hooks.close();
  });

  it('an earlier event moves an existing person’s first seen back; a later one leaves it', async () => {
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'pageview', email: 'ada@example.com' },
    });
    const first = await personOf('ada@example.com');
    const earlier = new Date(Date.now() - 30 * DAY_MS).toISOString();
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { events: [{ type: 'pageview', email: 'ada@example.com', occurred_at: earlier }] },
    });
    const moved = await personOf('ada@example.com');
    expect(moved.id).toBe(first.id);
    expect(new Date(moved.createdAt).toISOString()).toBe(earlier);
    // the search finds them by the moved date too (identities carry their person's first seen)
    const [identity] = await t.db.query(
      `SELECT person_created_at FROM identities WHERE workspace_id = $1 AND person_id = $2`,
      [ws.workspace.id, first.id],
    );
    expect(new Date(identity.person_created_at).toISOString()).toBe(earlier);
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'pageview', email: 'ada@example.com', occurred_at: new Date(Date.now() - DAY_MS).toISOString() },
    });
    expect(new Date((await personOf('ada@example.com')).createdAt).toISOString()).toBe(earlier);
  });
});

describe("the workspace's history window", () => {
  it('is 24 hours by default, changes within an hour to a year, and a bad value is refused and changes nothing', async () => {
    expect((await gql('{ workspace { historyWindowHours } }')).workspace.historyWindowHours).toBe(24);
    for (const bad of [0, -5, 8761]) {
      const refused = await t.gql(SETTINGS, { input: { historyWindowHours: bad } }, ws.secretKey);
      expect(refused.errors![0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
      expect(refused.errors![0].message).toMatch(/historyWindowHours must be a whole number of hours from 1 to 8760/);
    }
    expect((await gql('{ workspace { historyWindowHours } }')).workspace.historyWindowHours).toBe(24);
    expect((await gql(SETTINGS, { input: { historyWindowHours: 24 * 365 } })).updateWorkspaceSettings).toEqual({
      historyWindowHours: 8760,
    });
  });

  it('a wider window makes a three-day-old signup start its run again; a narrower one makes a two-hour-old one history', async () => {
    const { signup } = await setUp();
    await gql(SETTINGS, { input: { historyWindowHours: 24 * 7 } });
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'signup', email: 'wide@example.com', occurred_at: new Date(Date.now() - 3 * DAY_MS).toISOString() },
    });
    await eventually(async () => (await automation(signup)).runs.length === 1);

    await gql(SETTINGS, { input: { historyWindowHours: 1 } });
    await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: {
        type: 'signup',
        email: 'narrow@example.com',
        occurred_at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
      },
    });
    await settled();
    const shown = await automation(signup);
    expect(shown.runs).toHaveLength(1);
    expect(shown.passedOverHistory).toBe(1);
  });
});
