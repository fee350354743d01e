// A person's data on request (docs/rest.md#a-persons-data-on-request): one person made through every
// door (events, website, a third-party door, email in, messages out, an automation run, deliveries, a
// merge), exported, erased, then every text and JSON column of every table read for any trace of them;
// later posts naming them answer suppressed and write nothing; an owner lifts a suppression; the export
// of a person with 100k timeline rows streams.
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { freePort, PersonDataParticipants } from '@app/platform';
import { eventually, memberKey, useApp } from './harness';
import { run } from './support/processes';
import { connectDoor, postRaw } from './support/doors';
import { receiver } from './support/receiver';
import { useSmtp } from './support/smtp';

const SITE = 'https://www.ada.example';
const EMAIL_SECRET = 'whsec_' + Buffer.from('lifeline-person-data-test-secret').toString('base64');
const STRIPE_SECRET = 'whsec_test_person_data_0a1b2c3d4e5f6a7b8c9d';
const consent = { text: 'Yes, send me the Analytical Engine newsletter.' };

const ADA = {
  email: 'ada.lovelace@example.com',
  name: 'Ada Lovelace',
  anon: 'anon-ada-7f3kq9',
  account: 'acct-ada-91xw2',
  customer: 'cus_AdaLovelace815',
};

const smtp = useSmtp();
const t = useApp({
  worker: true,
  env: () => ({ EMAIL_WEBHOOK_SECRET: EMAIL_SECRET, SMTP_URL: smtp.url, EMAIL_FROM: 'Lifeline <hello@lifeline.test>' }),
});

function emailDoorPost(payload: unknown, id: string) {
  const raw = JSON.stringify(payload);
  const at = new Date();
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(EMAIL_SECRET).sign(id, at, raw),
  };
  return t.request('POST', '/api/webhooks/email', { raw, headers });
}

function stripeCheckout(email: string, customer: string) {
  const created = Math.floor(Date.now() / 1000);
  const raw = JSON.stringify({
    id: `evt_1Nf${Date.now().toString(36)}`,
    object: 'event',
    created,
    type: 'checkout.session.completed',
    data: {
      object: {
        id: `cs_test_${Date.now().toString(36)}`,
        object: 'checkout.session',
        amount_total: 4200,
        currency: 'usd',
        customer,
        customer_details: { email, name: ADA.name },
        payment_status: 'paid',
        mode: 'payment',
      },
    },
  });
  return {
    raw,
    headers: {
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({
        payload: raw,
        secret: STRIPE_SECRET,
        timestamp: created,
      }),
    },
  };
}

/** Every (table, column) of text, json or array type in the database, and the rows whose text holds any needle. */
async function traces(needles: string[]): Promise<Array<{ table: string; column: string; text: string }>> {
  const columns: Array<{ table_name: string; column_name: string }> = await t.db.query(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY')
      ORDER BY table_name, column_name`,
  );
  expect(columns.length).toBeGreaterThan(60);
  const found: Array<{ table: string; column: string; text: string }> = [];
  const patterns = needles.map((n) => `%${n.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  for (const { table_name: table, column_name: column } of columns) {
    const rows: Array<{ text: string }> = await t.db.query(
      `SELECT "${column}"::text AS text FROM "${table}" WHERE "${column}"::text ILIKE ANY($1::text[])`,
      [patterns],
    );
    for (const row of rows) found.push({ table, column, text: row.text });
  }
  return found;
}

describe('one person through every door, exported, erased, and kept erased', () => {
  let ws: Awaited<ReturnType<typeof t.workspace>>;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  let adaId: string;
  let anonId: string;
  const bob = 'bob.babbage@example.com';

  beforeAll(async () => {
    hooks = await receiver();
    ws = await t.workspace({ origins: [SITE] });
    const gql = async (query: string, variables: Record<string, unknown> = {}) => {
      const answer = await t.gql(query, variables, ws.secretKey);
      if (answer.errors) throw new Error(JSON.stringify(answer.errors));
      return answer.data;
    };
    await gql('mutation { createList(input: {address: "news", name: "News"}) { id } }');
    await gql(
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
      {
        input: {
          url: `${hooks.url}/hooks`,
          triggers: ['event', 'stage_entered', 'field_changed', 'subscribed', 'person_erased'],
        },
      },
    );
    const automation = await gql(
      `mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } } }`,
      {
        input: {
          name: 'Welcome',
          trigger: { kind: 'event', event: 'signup' },
          steps: [{ kind: 'wait', seconds: 3600 }],
        },
      },
    );
    await gql(`mutation($id: ID!) { setAutomationStatus(id: $id, status: "running") { id } }`, {
      id: automation.createAutomation.automation.id,
    });
    const post = async (body: unknown) => {
      const answer = await t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
      expect(answer.body).toMatchObject({ ok: true });
      return answer.body;
    };
    const site = async (action: string, body: unknown) => {
      const answer = await t.request('POST', `/api/in/${ws.publicKey}/${action}`, { body, headers: { origin: SITE } });
      expect(answer.body).toMatchObject({ ok: true });
    };

    // The website: a visitor known only by anon_id, then their subscription by email.
    await site('event', {
      type: 'pageview',
      anon_id: ADA.anon,
      source: { path: '/engines', utm_source: 'newsletter' },
    });
    anonId = (
      await t.db.query(`SELECT person_id FROM identities WHERE workspace_id = $1 AND value = $2`, [
        ws.workspace.id,
        ADA.anon,
      ])
    )[0].person_id;
    // Servers: a signup by email (its own person), an identify joining the two (a merge), a keyed event.
    adaId = (await post({ type: 'signup', email: ADA.email, properties: { plan: 'engine', note: ADA.name } })).id;
    await post({
      type: 'identify',
      email: ADA.email,
      anon_id: ADA.anon,
      account_id: ADA.account,
      name: ADA.name,
      fields: { company: 'Analytical Engines Ltd' },
    });
    await post({
      type: 'feature_used',
      email: ADA.email,
      idempotency_key: `key-${ADA.account}`,
      properties: { feature: 'notes' },
    });
    await site('subscribe', { email: ADA.email, list: 'news', consent });
    await site('support', { from: ADA.email, message: `Hello, this is ${ADA.name}.` });
    // A third-party door: a paid checkout naming her by email and Stripe customer.
    const door = await connectDoor(t, ws, { kind: 'payment', secret: STRIPE_SECRET });
    const checkout = stripeCheckout(ADA.email, ADA.customer);
    expect((await postRaw(t, door.path, checkout.raw, checkout.headers)).body).toEqual({
      ok: true,
      status: 'recorded',
    });
    // Messages out and a reply in.
    const sent = await t.request('POST', '/api/v1/messages', {
      key: ws.secretKey,
      body: { to: ADA.email, subject: 'Your engine', body: `Dear ${ADA.name}, thank you.` },
    });
    expect(sent.body.providerId).toBeTruthy();
    const reply = {
      type: 'email.received',
      data: {
        email_id: 'inbound-ada',
        from: `${ADA.name} <${ADA.email}>`,
        to: ['hello@lifeline.test'],
        subject: 'Re: Your engine',
        text: 'It computes!',
        in_reply_to: sent.body.providerId,
      },
    };
    expect((await emailDoorPost(reply, 'msg_ada_reply')).body).toEqual({ ok: true, status: 'recorded' });
    await gql(`mutation { addNote(person: "${ADA.email}", text: "Called ${ADA.name} about the engine") { id } }`);
    // Someone else, who must keep everything.
    await post({ type: 'signup', email: bob, properties: { referrer: 'someone' } });

    // The worker has made the deliveries and the run.
    await eventually(
      async () =>
        hooks.received.length >= 5 &&
        (await t.db.query(`SELECT 1 FROM automation_runs WHERE workspace_id = $1`, [ws.workspace.id])).length >= 2,
    );
  }, 60_000);

  afterAll(() => hooks?.close());

  it('exports everything held about her, as a download and in GraphQL, and refuses someone unknown', async () => {
    const download = await t.request('GET', `/api/v1/people/${encodeURIComponent(ADA.email)}/export`, {
      key: ws.secretKey,
    });
    expect(download.status).toBe(200);
    const doc = download.body;
    // The identify merged the signup's person and the visitor's: the older one stays, the other is merged in.
    expect(doc.person).toMatchObject({
      id: anonId,
      name: ADA.name,
      email: ADA.email,
      mergedIds: [adaId],
      fields: { company: 'Analytical Engines Ltd' },
    });
    expect(download.headers.get('content-disposition')).toContain(`person-export-${anonId}.json`);
    expect(doc.identities.map((i: { kind: string; value: string }) => `${i.kind}:${i.value}`).sort()).toEqual(
      [`account_id:${ADA.account}`, `account_id:${ADA.customer}`, `anon_id:${ADA.anon}`, `email:${ADA.email}`].sort(),
    );
    expect(doc.subscriptions).toEqual([
      expect.objectContaining({
        list: 'news',
        status: 'subscribed',
        consentText: consent.text,
        consentIp: '127.0.0.1',
        grantedAt: expect.any(String),
      }),
    ]);
    const types = doc.timeline.map((r: { type: string }) => r.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'pageview',
        'signup',
        'merged',
        'feature_used',
        'subscribed',
        'support',
        'purchase',
        'email_sent',
        'email_received',
        'note',
        'stage_changed',
      ]),
    );
    expect(doc.messages.map((m: { direction: string; text: string }) => [m.direction, m.text])).toEqual([
      ['out', `Dear ${ADA.name}, thank you.`],
      ['in', 'It computes!'],
    ]);
    expect(doc.automationRuns.length).toBeGreaterThanOrEqual(1);
    expect(doc.deliveries.length).toBeGreaterThanOrEqual(5);
    expect(
      doc.deliveries.every((d: { body: { record: { id: string } } }) => [adaId, anonId].includes(d.body.record.id)),
    ).toBe(true);
    expect(JSON.stringify(doc)).not.toContain(bob);

    const graphql = await t.gql(`query($p: String!) { personExport(person: $p) }`, { p: adaId }, ws.secretKey);
    expect(graphql.errors).toBeUndefined();
    const { exportedAt: _a, ...viaGraphql } = graphql.data.personExport;
    const { exportedAt: _b, ...viaRest } = doc;
    expect(viaGraphql).toEqual(viaRest);

    const unknown = await t.request('GET', '/api/v1/people/nobody@example.com/export', { key: ws.secretKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: 'no_such_person' });
  });

  it("a member's key may not erase; an owner's erases every trace, leaves everyone else, fires person_erased and logs a proof naming no one", async () => {
    const member = await memberKey(t, ws, 'helper@lifeline.test');
    const refused = await t.request('DELETE', `/api/v1/people/${ADA.email}`, { key: member.secretKey });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ ok: false, error: 'forbidden' });
    const bobBefore = await t.request('GET', `/api/v1/people/${bob}/export`, { key: ws.secretKey });

    const erased = await t.request('DELETE', `/api/v1/people/${ADA.email}`, { key: ws.secretKey });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ ok: true, id: expect.stringMatching(/^era_/), suppressedKeys: 4 });
    const rows = Object.fromEntries(erased.body.tables.map((e: { table: string; rows: number }) => [e.table, e.rows]));
    // idempotency_keys: the keyed event's answer and the payment door's (its event id is the key).
    expect(rows).toMatchObject({ people: 2, identities: 4, subscriptions: 1, messages: 2, idempotency_keys: 2 });
    for (const table of ['events', 'automation_runs', 'deliveries', 'outbox']) expect(rows[table]).toBeGreaterThan(0);

    // Every text and JSON column of every table: no email, name, key or record id of hers is left,
    // but the record id in the person_erased happening and its deliveries, which carry nothing else.
    const needles = [
      ADA.email,
      ADA.name,
      ADA.anon,
      ADA.account,
      ADA.customer,
      adaId,
      anonId,
      'It computes!',
      'Analytical Engines',
    ];
    const left = await traces(needles);
    const erasedNotice = (hit: { table: string; text: string }) =>
      (hit.table === 'outbox' &&
        JSON.parse(hit.text).every(
          (h: { kind: string; personId: string }) => h.personId !== anonId || h.kind === 'person_erased',
        )) ||
      (hit.table === 'deliveries' && /"type":"person_erased"/.test(hit.text));
    expect(left.filter((hit) => !erasedNotice(hit))).toEqual([]);
    for (const hit of left)
      for (const needle of needles.filter((n) => n !== anonId))
        expect(hit.text.toLowerCase()).not.toContain(needle.toLowerCase());

    // A redacted delivery has nothing left to send again.
    const [redacted] = await t.db.query(
      `SELECT id FROM deliveries WHERE workspace_id = $1 AND body LIKE '%"redacted": true%' LIMIT 1`,
      [ws.workspace.id],
    );
    const retried = await t.gql(
      `mutation($id: ID!) { retryDelivery(id: $id) { id } }`,
      { id: redacted.id },
      ws.secretKey,
    );
    expect(retried.errors![0].extensions.code).toBe('conflict');

    // The receiver hears person_erased with the record id only.
    const notice = await eventually(async () => hooks.received.find((r) => r.body?.type === 'person_erased'));
    expect(notice.body.record).toEqual({ id: anonId, kind: 'person', name: '' });
    expect(notice.body.data).toEqual({});

    // The proof: a line in the erasure log, naming no one.
    const [proof] = await t.db.query(`SELECT id, person_hash, asked_by, counts FROM erasures WHERE workspace_id = $1`, [
      ws.workspace.id,
    ]);
    expect(proof).toMatchObject({
      id: erased.body.id,
      person_hash: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      counts: expect.objectContaining({ people: 2 }),
    });

    // Bob keeps everything.
    const bobAfter = await t.request('GET', `/api/v1/people/${bob}/export`, { key: ws.secretKey });
    const { exportedAt: _a, ...before } = bobBefore.body;
    const { exportedAt: _b, ...after } = bobAfter.body;
    expect(after).toEqual(before);
    expect((await t.request('GET', `/api/v1/people/${ADA.email}/export`, { key: ws.secretKey })).status).toBe(404);
  });

  it('a later post naming any of her keys answers suppressed and writes nothing, at every door; an owner lifts one', async () => {
    const count = async () =>
      (
        await t.db.query(
          `SELECT (SELECT count(*) FROM people WHERE workspace_id = $1)::int AS people, (SELECT count(*) FROM events WHERE workspace_id = $1)::int AS events,
                (SELECT count(*) FROM identities WHERE workspace_id = $1)::int AS identities`,
          [ws.workspace.id],
        )
      )[0];
    const before = await count();
    const server = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
    const site = (action: string, body: unknown) =>
      t.request('POST', `/api/in/${ws.publicKey}/${action}`, { body, headers: { origin: SITE } });
    const suppressed = { ok: true, status: 'suppressed' };
    expect((await server({ type: 'pageview', email: ADA.email.toUpperCase() })).body).toEqual(suppressed);
    expect(
      (
        await server({
          type: 'login',
          email: 'new.address@example.com',
          account_id: ADA.account,
          idempotency_key: 'again-1',
        })
      ).body,
    ).toEqual(suppressed);
    expect(
      (
        await server({
          type: 'login',
          email: 'new.address@example.com',
          account_id: ADA.account,
          idempotency_key: 'again-1',
        })
      ).body,
    ).toEqual(suppressed);
    expect((await server({ type: 'identify', anon_id: ADA.anon, name: 'Someone' })).body).toEqual(suppressed);
    const batch = await server({
      events: [
        { type: 'pageview', account_id: ADA.customer },
        { type: 'pageview', email: 'carol@example.com' },
      ],
    });
    expect(batch.body.results.map((r: { status: string }) => r.status)).toEqual(['suppressed', 'recorded']);
    expect((await site('subscribe', { email: ADA.email, list: 'news', consent })).body).toEqual(suppressed);
    expect((await site('event', { type: 'pageview', anon_id: ADA.anon })).body).toEqual(suppressed);
    expect((await site('support', { from: ADA.email, message: 'Hello again' })).body).toEqual(suppressed);
    const after = await count();
    expect(after).toEqual({ people: before.people + 1, events: before.events + 1, identities: before.identities + 1 }); // carol only
    expect(await traces([ADA.email, ADA.anon, ADA.account, ADA.customer, 'new.address@example.com'])).toEqual([]);

    const lift = `mutation($kind: String!, $value: String!) { liftSuppression(kind: $kind, value: $value) }`;
    const admin = await memberKey(t, ws, 'admin@lifeline.test', 'admin');
    expect((await t.gql(lift, { kind: 'email', value: ADA.email }, admin.secretKey)).errors![0].extensions.code).toBe(
      'forbidden',
    );
    expect((await t.gql(lift, { kind: 'phone', value: '1' }, ws.secretKey)).errors![0].extensions.code).toBe(
      'invalid_field',
    );
    expect(
      (await t.gql(lift, { kind: 'email', value: ` ${ADA.email.toUpperCase()} ` }, ws.secretKey)).data.liftSuppression,
    ).toBe(true);
    expect((await t.gql(lift, { kind: 'email', value: ADA.email }, ws.secretKey)).data.liftSuppression).toBe(false);
    expect((await server({ type: 'pageview', email: ADA.email })).body).toMatchObject({ ok: true, status: 'recorded' });
    // Her other keys stay suppressed.
    expect((await server({ type: 'pageview', anon_id: ADA.anon })).body).toEqual(suppressed);
  });

  it('erasing someone unknown, or with no one named, refuses and changes nothing', async () => {
    const erasures = async () => (await t.db.query(`SELECT count(*)::int AS n FROM erasures`))[0].n;
    const before = await erasures();
    const unknown = await t.gql(`mutation { erasePerson(person: "per_nobody") { id } }`, {}, ws.secretKey);
    expect(unknown.errors![0].extensions.code).toBe('no_such_person');
    const blank = await t.gql(`mutation { erasePerson(person: "  ") { id } }`, {}, ws.secretKey);
    expect(blank.errors![0].extensions.code).toBe('invalid_field');
    expect(await erasures()).toBe(before);
  });

  it('posts racing an erasure either land before it (and are erased) or answer suppressed: the person never comes back', async () => {
    const email = 'racing@example.com';
    const post = () =>
      t.request('POST', '/api/v1/events', {
        key: ws.secretKey,
        body: { type: 'pageview', email, anon_id: 'anon-racing' },
      });
    await post();
    const posts = Array.from({ length: 30 }, (_, i) => new Promise((r) => setTimeout(r, i * 3)).then(post));
    const erased = t.request('DELETE', `/api/v1/people/${email}`, { key: ws.secretKey });
    const answers = await Promise.all(posts);
    expect((await erased).body.ok).toBe(true);
    expect(answers.every((a) => a.body.ok && ['recorded', 'suppressed'].includes(a.body.status))).toBe(true);
    const left = await t.db.query(
      `SELECT count(*)::int AS n FROM identities WHERE workspace_id = $1 AND value = ANY($2::text[])`,
      [ws.workspace.id, [email, 'anon-racing']],
    );
    expect(left[0].n).toBe(0);
    expect((await post()).body).toEqual({ ok: true, status: 'suppressed' });
  });

  it("erases through GraphQL as through REST, and a workspace never reaches another's people", async () => {
    const other = await t.workspace();
    const mine = (
      await t.request('POST', '/api/v1/events', {
        key: ws.secretKey,
        body: { type: 'signup', email: 'shared@example.com' },
      })
    ).body.id;
    const theirs = (
      await t.request('POST', '/api/v1/events', {
        key: other.secretKey,
        body: { type: 'signup', email: 'shared@example.com' },
      })
    ).body.id;
    const cross = await t.gql(`mutation($p: String!) { erasePerson(person: $p) { id } }`, { p: theirs }, ws.secretKey);
    expect(cross.errors![0].extensions.code).toBe('no_such_person');
    expect(
      (await t.gql(`query($p: String!) { personExport(person: $p) }`, { p: theirs }, ws.secretKey)).errors![0]
        .extensions.code,
    ).toBe('no_such_person');
    const done = await t.gql(
      `mutation { erasePerson(person: "shared@example.com") { id tables { table rows } suppressedKeys } }`,
      {},
      ws.secretKey,
    );
    expect(done.errors).toBeUndefined();
    expect(done.data.erasePerson.suppressedKeys).toBe(1);
    expect((await t.request('GET', `/api/v1/people/${mine}/export`, { key: ws.secretKey })).status).toBe(404);
    // The other workspace still has theirs, and may post the same email.
    expect((await t.request('GET', `/api/v1/people/${theirs}/export`, { key: other.secretKey })).body.person.id).toBe(
      theirs,
    );
    expect(
      (
        await t.request('POST', '/api/v1/events', {
          key: other.secretKey,
          body: { type: 'pageview', email: 'shared@example.com' },
        })
      ).body.status,
    ).toBe('recorded');
  });
});

/** Tables that name no person, and why: the rest must each have a participant that erases and exports them. */
const NO_PERSONAL_DATA: Record<string, string> = {
  migrations: 'the schema version',
  workspaces: "a customer's settings",
  members: "the customer's own staff, who sign in",
  api_keys: 'hashed keys of members',
  sessions: 'members signed in',
  sign_in_links: 'members signing in',
  oauth_clients: 'connectors (MCP clients)',
  oauth_codes: 'connectors signing in',
  connections: 'connectors signed in',
  connection_tokens: 'connectors signed in (hashed tokens)',
  outbox_relay: "the relay's high-water mark",
  lists: 'list names and addresses',
  event_names: 'custom event names seen',
  events_rollup: 'counts and sums of events per hour, day and first-touch key (no person)',
  events_rollup_mark: "the rollups' fold mark",
  events_rollup_people:
    "sketches of distinct people per day, week and month: 64-bit hashes of person ids, no person's data; an erasure lists the erased rows' days, sketched again without them by the next folds",
  events_rollup_dirty: 'days whose people sketches are to be made again (no person)',
  heartbeat: 'counts per minute, action and answer',
  templates: "the workspace's email templates",
  door_receipts: "third parties' delivery ids and the answer given (recorded, ignored or a code)",
  webhook_endpoints: 'outgoing addresses and their sealed secrets',
  webhook_endpoint_health: 'counts of answers per address',
  automations: 'automation definitions',
  door_connections: 'third-party door settings',
  suppressions: 'keyed hashes of erased identities (the point of the table)',
  erasures: 'the erasure log: a keyed hash, the time, who asked, counts',
  segments: 'segment definitions and their fill progress',
  segment_revisions: 'a number per workspace, raised by each change of its segments',
  broadcasts: "a workspace's emails to a list or a segment: their content, no person",
  webhook_replays: "an address's replays: the window, the progress, no event's content",
  workspace_limits: "the operator's limits for a workspace",
  limit_peaks: "the busiest window per key and limit: a key id, an automation id or 'visitors', and counts",
};

describe('every table that can name a person has an erasure participant', () => {
  it('each table of the schema is erased and exported by a participant, or is listed as naming no one', async () => {
    const participants = t.app.get(PersonDataParticipants).all();
    expect(participants.map((p) => p.name).sort()).toEqual([
      'automations',
      'events',
      'messaging',
      'outbox',
      'people',
      'webhooks',
    ]);
    const covered = new Set(participants.flatMap((p) => p.tables));
    const tables: Array<{ table_name: string; person: boolean }> = await t.db.query(
      `SELECT table_name, bool_or(column_name = 'person_id') AS person
         FROM information_schema.columns WHERE table_schema = 'public'
          -- A partition (events by month) is its partitioned table's rows.
          AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)
        GROUP BY table_name ORDER BY table_name`,
    );
    expect(
      tables.filter((t) => !covered.has(t.table_name) && !NO_PERSONAL_DATA[t.table_name]).map((t) => t.table_name),
    ).toEqual([]);
    // A table with a person column is never one listed as naming no one, and nothing is both.
    expect(tables.filter((t) => t.person && NO_PERSONAL_DATA[t.table_name]).map((t) => t.table_name)).toEqual([]);
    expect(tables.filter((t) => t.person).length).toBeGreaterThanOrEqual(5);
    expect([...covered].filter((name) => NO_PERSONAL_DATA[name])).toEqual([]);
  });
});

describe('the export of a person with 100,000 timeline rows', () => {
  /** A process's resident memory (VmRSS) and its high-water mark since it started (VmHWM), in MB. */
  const memoryOf = (pid: number) => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  };

  it("streams: the api process's resident memory grows by well under 100 MB, and the document is whole", async () => {
    const ws = await t.workspace();
    const person = await t.make.person(ws.workspace.id, { email: 'long.history@example.com' });
    const small = await t.make.person(ws.workspace.id, { email: 'short.history@example.com' });
    await t.make.events(ws.workspace.id, small.id, 100);
    await t.make.events(ws.workspace.id, person.id, 100_000);
    // The api alone in its own process, on this test's database, so its memory is the export's.
    const port = await freePort();
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      DATABASE_URL: t.config.databaseUrl,
      REDIS_URL: t.config.redisUrl,
      REDIS_PREFIX: t.config.redisPrefix,
      APP_SECRET: t.config.appSecret,
      LOG_LEVEL: 'warn',
    };
    const api = run(process.execPath, ['scripts/run.js', 'apps/api/src/main'], { cwd: join(__dirname, '..'), env });
    const dir = mkdtempSync(join(tmpdir(), 'export-'));
    try {
      await api.waitFor('api listening', 60_000);
      const download = async (id: string, file: string) => {
        const response = await fetch(`http://127.0.0.1:${port}/api/v1/people/${id}/export`, {
          headers: { authorization: `Bearer ${ws.secretKey}` },
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-length')).toBeNull(); // streamed, not built first
        await pipeline(
          Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
          createWriteStream(file),
        );
      };
      await download(small.id, join(dir, 'warm-up.json')); // every code path loaded
      const before = memoryOf(api.child.pid!);
      await download(person.id, join(dir, 'export.json'));
      const after = memoryOf(api.child.pid!);
      expect(after.peak - before.rss).toBeLessThan(100);
      const file = join(dir, 'export.json');
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      expect(doc.timeline).toHaveLength(100_000);
      expect(doc.timeline[0].properties.path).toBe('/page/0');
      expect(doc.timeline[99_999].properties.path).toBe('/page/99999');
      // The operator CLI writes the same export to a file.
      const cli = run(
        process.execPath,
        [
          'scripts/run.js',
          'apps/api/src/cli',
          'person',
          'export',
          '--workspace',
          ws.workspace.slug,
          '--person',
          'short.history@example.com',
          '--out',
          join(dir, 'cli.json'),
        ],
        {
          cwd: join(__dirname, '..'),
          env,
        },
      );
      expect((await cli.exited).code).toBe(0);
      expect(JSON.parse(cli.output())).toMatchObject({ ok: true, person: small.id, file: join(dir, 'cli.json') });
      const written = JSON.parse(readFileSync(join(dir, 'cli.json'), 'utf8'));
      expect(written.person.id).toBe(small.id);
      expect(written.timeline).toHaveLength(100);
      // GraphQL answers a bounded document: past 10,000 rows it names the download instead.
      const graphql = await t.gql(`query($p: String!) { personExport(person: $p) }`, { p: person.id }, ws.secretKey);
      expect(graphql.errors![0].extensions.code).toBe('too_large');
      expect(graphql.errors![0].message).toContain('/export');
    } finally {
      api.child.kill('SIGKILL');
      await api.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
