// People, identity, stages, consent and triggers as the events endpoint writes them
// (docs/rest.md#events, docs/webhooks.md#triggers-and-bodies).
import { useApp, useWorkspace } from './harness';
import { happeningsOf } from './support/outbox';

const t = useApp();
const ws = useWorkspace(t);

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const person = async (email: string) => {
  const found = (
    await t.gql(
      `query($email: String) { person(email: $email) { id name email stage os engaged purchases fields firstTouch
       identities { kind value } subscriptions { list { address } consentText consent consentIp grantedAt sourceLabel }
       timeline(first: 100) { edges { node { type detail properties value } } } } }`,
      { email },
      ws.secretKey,
    )
  ).data.person;
  return found && { ...found, timeline: found.timeline.edges.map((e: { node: unknown }) => e.node) };
};
const settings = (input: Record<string, unknown>) =>
  t.gql(
    'mutation($input: UpdateWorkspaceSettingsInput!) { updateWorkspaceSettings(input: $input) { trialStage downloaderStage activationEvents } }',
    { input },
    ws.secretKey,
  );
const outbox = () => happeningsOf(t.db, ws.workspace.id);

describe('concurrent posts naming the same new key make one person, never two', () => {
  it('50 posts at once for a new email', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post({ type: 'pageview', email: 'crowd@example.com', properties: { i } })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    const people = await t.db.query(`SELECT count(*)::int AS n FROM people WHERE workspace_id = $1`, [ws.workspace.id]);
    expect(people[0].n).toBe(1);
    const events = await t.db.query(
      `SELECT count(*)::int AS n FROM events WHERE workspace_id = $1 AND type = 'pageview'`,
      [ws.workspace.id],
    );
    expect(events[0].n).toBe(50);
  });
});

describe('concurrent posts naming one person by different keys lose nothing', () => {
  it('purchases posted at once by email and by account_id all count', async () => {
    await post({ type: 'identify', email: 'two@example.com', account_id: 'acct-2' });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post({
          events: [
            {
              type: 'purchase',
              ...(i % 2 ? { email: 'two@example.com' } : { account_id: 'acct-2' }),
              properties: { i },
            },
          ],
        }),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const [row] = await t.db.query(
      `SELECT purchases, stage FROM people WHERE workspace_id = $1 AND email = 'two@example.com'`,
      [ws.workspace.id],
    );
    expect(row).toEqual({ purchases: 30, stage: 'repeat' });
  });

  it("a merge at the same moment as posts by the absorbed person's other key leaves everything on the survivor", async () => {
    for (let round = 0; round < 5; round++) {
      const email = `m${round}@example.com`;
      const account = `acct-m${round}`;
      const anon = `anon-m${round}`;
      await post({ type: 'pageview', email, anon_id: anon });
      await post({ type: 'pageview', account_id: account });
      await Promise.all([
        post({ events: [{ type: 'identify', email, account_id: account }] }),
        ...Array.from({ length: 6 }, () => post({ events: [{ type: 'purchase', account_id: account }] })),
        ...Array.from({ length: 6 }, () => post({ events: [{ type: 'purchase', anon_id: anon }] })),
      ]);
      const people = await t.db.query(
        `SELECT id, purchases FROM people WHERE workspace_id = $1 AND merged_into IS NULL AND id IN (SELECT person_id FROM identities WHERE workspace_id = $1 AND value = ANY($2::text[]))`,
        [ws.workspace.id, [email, account, anon]],
      );
      expect(people).toHaveLength(1);
      expect(people[0].purchases).toBe(12);
      const stray = await t.db.query(
        `SELECT count(*)::int AS n FROM events e JOIN people p ON p.workspace_id = e.workspace_id AND p.id = e.person_id WHERE e.workspace_id = $1 AND p.merged_into IS NOT NULL`,
        [ws.workspace.id],
      );
      expect(stray[0].n).toBe(0);
    }
  });
});

describe('stages are decided when an event arrives', () => {
  it('climbs the ladder: download, activated, signup, purchase, second purchase, churned, purchase', async () => {
    const steps: Array<[string, string]> = [
      ['download', 'downloader'],
      ['activated', 'activated'],
      ['signup', 'account'],
      ['purchase', 'purchaser'],
      ['credit_purchase', 'repeat'],
      ['churned', 'churned'],
      ['purchase', 'purchaser'],
    ];
    for (const [type, stage] of steps) {
      expect((await post({ type, email: 'climber@example.com' })).body.status).toBe('recorded');
      expect((await person('climber@example.com')).stage).toBe(stage);
    }
    const entered = (await outbox()).filter((o) => o.kind === 'stage_entered').map((o) => o.payload.data.stage_entered);
    expect(entered.map((d: { stage: string }) => d.stage)).toEqual(steps.map(([, s]) => s));
    expect(entered[1]).toEqual({ stage: 'activated', from: 'downloader', object: 'person' });
  });

  it('a web-app workspace has no Downloader stage: download is recorded and moves nobody', async () => {
    Object.assign(ws, await t.workspace({ web: true }));
    expect((await post({ type: 'download', email: 'web@example.com' })).body.status).toBe('recorded');
    expect((await person('web@example.com')).stage).toBeNull();
    const refused = await settings({ downloaderStage: true });
    expect(refused.errors![0]).toMatchObject({
      extensions: { code: 'invalid_field' },
      message: expect.stringContaining('no Downloader stage'),
    });
  });

  it('updateWorkspaceSettings turns the Downloader stage off: a download then moves nobody', async () => {
    expect((await settings({ downloaderStage: false })).data.updateWorkspaceSettings.downloaderStage).toBe(false);
    await post({ type: 'download', email: 'dl@example.com' });
    expect((await person('dl@example.com')).stage).toBeNull();
    await settings({ downloaderStage: true });
    await post({ type: 'download', email: 'dl2@example.com' });
    expect((await person('dl2@example.com')).stage).toBe('downloader');
  });

  it('Trial only when the workspace switches it on, and a trial that ends goes back to Account', async () => {
    await post({ type: 'signup', email: 'trial@example.com' });
    await post({ type: 'trial_started', email: 'trial@example.com' });
    expect((await person('trial@example.com')).stage).toBe('account');
    expect((await settings({ trialStage: true })).data.updateWorkspaceSettings.trialStage).toBe(true);
    await post({ type: 'trial_started', email: 'trial@example.com' });
    expect((await person('trial@example.com')).stage).toBe('trial');
    await post({ type: 'subscription_cancelled', email: 'trial@example.com' });
    expect((await person('trial@example.com')).stage).toBe('account');
  });

  it('workspace activation events count as activation; custom names otherwise move nobody', async () => {
    await post({ type: 'report_built', email: 'act@example.com' });
    expect((await person('act@example.com')).stage).toBeNull();
    await settings({ activationEvents: ['report_built'] });
    await post({ type: 'report_built', email: 'act@example.com' });
    expect((await person('act@example.com')).stage).toBe('activated');
  });

  it('is never recomputed: the stage stays after the event row expires', async () => {
    await post({ type: 'purchase', email: 'keep@example.com', expires_at: new Date(Date.now() + 200).toISOString() });
    await new Promise((r) => setTimeout(r, 300));
    const { TimelineRepository } = await import('@app/events');
    await t.app.get(TimelineRepository).deleteExpired(new Date());
    const p = await person('keep@example.com');
    expect(p.stage).toBe('purchaser');
    expect(p.timeline.find((e: { type: string }) => e.type === 'purchase')).toBeUndefined();
  });
});

describe('merging inside one batch', () => {
  it('a list join by a new person who is merged later in the same batch stays with the merged person', async () => {
    await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
    const older = await post({ type: 'identify', account_id: 'acct-1', name: 'Old' });
    const answer = await post({
      events: [
        { type: 'subscribe', email: 'late@example.com', list: 'news', consent: 'Yes' },
        { type: 'identify', email: 'late@example.com', account_id: 'acct-1' },
      ],
    });
    expect(answer.body.results.map((r: { status: string }) => r.status)).toEqual(['subscribed', 'merged']);
    const subs = await t.db.query(`SELECT person_id FROM subscriptions WHERE workspace_id = $1`, [ws.workspace.id]);
    expect(subs).toEqual([{ person_id: older.body.id }]);
    const p = await person('late@example.com');
    expect(p.id).toBe(older.body.id);
    expect(p.subscriptions).toHaveLength(1);
  });
});

describe('first touch, os, engaged and the timeline', () => {
  it('first touch is set once from the first post with source data; referrer reduced to its host', async () => {
    await post({
      type: 'pageview',
      email: 'ft@example.com',
      source: { path: '/pricing', referrer: 'https://news.example.org/item?id=3', os: 'mac' },
    });
    await post({
      type: 'pageview',
      email: 'ft@example.com',
      source: { utm: { source: 'later', medium: 'cpc' }, os: 'android' },
    });
    const p = await person('ft@example.com');
    expect(p.firstTouch).toMatchObject({
      source: 'news.example.org',
      medium: null,
      referrer: 'news.example.org',
      path: '/pricing',
    });
    expect(p.os).toBe('mac');
    expect(p.timeline[1].type).toBe('pageview');
  });

  it('only a purchase, signup, support post, reply or list join makes a person engaged', async () => {
    await post({ type: 'pageview', email: 'eng@example.com' });
    expect((await person('eng@example.com')).engaged).toBe(false);
    await post({
      type: 'support',
      from: 'eng@example.com',
      who: 'Eve',
      topic: 'Billing',
      message: 'Where is my invoice?',
    });
    const p = await person('eng@example.com');
    expect(p.engaged).toBe(true);
    expect(p.name).toBe('Eve');
    expect(p.timeline[0]).toMatchObject({
      type: 'support',
      detail: 'Billing',
      properties: { message: 'Where is my invoice?', topic: 'Billing' },
    });
  });
});

describe('subscriptions keep the consent words verbatim', () => {
  beforeEach(() => t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey));

  it('consent as a string', async () => {
    await post({
      type: 'subscribe',
      email: 'c1@example.com',
      list: 'news',
      consent: 'Yes, send me the news.  ',
      source_label: 'footer',
    });
    const [sub] = (await person('c1@example.com')).subscriptions;
    expect(sub).toMatchObject({
      list: { address: 'news' },
      consentText: 'Yes, send me the news.  ',
      consent: 'Yes, send me the news.  ',
      sourceLabel: 'footer',
    });
    expect((await person('c1@example.com')).engaged).toBe(true);
  });

  it('consent as an object with ip and granted_at', async () => {
    const consent = { text: 'I agree to monthly emails.', ip: '198.51.100.7', granted_at: '2026-03-04T05:06:07.000Z' };
    await post({ type: 'subscribe', email: 'c2@example.com', list: 'news', consent, anon_id: 'tab-1' });
    const p = await person('c2@example.com');
    expect(p.subscriptions[0]).toMatchObject({
      consentText: consent.text,
      consent,
      consentIp: consent.ip,
      grantedAt: consent.granted_at,
    });
    expect(p.identities).toEqual(
      expect.arrayContaining([
        { kind: 'email', value: 'c2@example.com' },
        { kind: 'anon_id', value: 'tab-1' },
      ]),
    );
    const subscribed = (await outbox()).find((o) => o.kind === 'subscribed');
    expect(subscribed!.payload.data.subscribed).toEqual({ list: { address: 'news', name: 'News' } });
  });
});

describe('triggers are written to the outbox with the row that caused them', () => {
  it('event, field_changed and stage_entered happenings', async () => {
    await post({ type: 'identify', email: 'tr@example.com', name: 'Tess', fields: { plan: 'free' } });
    await post({ type: 'identify', email: 'tr@example.com', name: 'Tessa', fields: { plan: 'pro' } });
    await post({ type: 'signup', email: 'tr@example.com', value: 0, properties: { via: 'google' } });
    const rows = await outbox();
    const changed = rows.filter((r) => r.kind === 'field_changed').map((r) => r.payload.data.field_changed);
    expect(changed).toEqual(
      expect.arrayContaining([
        { field: 'name', from: 'Tess', to: 'Tessa' },
        { field: 'plan', from: 'free', to: 'pro' },
      ]),
    );
    const event = rows.find((r) => r.kind === 'event')!.payload.data.event;
    expect(event).toMatchObject({
      event: 'signup',
      value: 0,
      properties: { via: 'google' },
      id: expect.stringMatching(/^evt_/),
    });
    expect(rows.some((r) => r.kind === 'stage_entered')).toBe(true);
  });

  it('field_changed also fires when a support post names someone, a post brings a new os, or a key adds the email', async () => {
    await post({ type: 'pageview', anon_id: 'fc-1', source: { os: 'mac' } });
    await post({ type: 'support', anon_id: 'fc-1', who: 'Fay', message: 'Hello' });
    await post({ type: 'pageview', anon_id: 'fc-1', source: { os: 'win' } });
    await post({ type: 'identify', anon_id: 'fc-1', email: 'fay@example.com' });
    const changed = (await outbox()).filter((r) => r.kind === 'field_changed').map((r) => r.payload.data.field_changed);
    expect(changed).toEqual([
      { field: 'name', from: null, to: 'Fay' },
      { field: 'os', from: 'mac', to: 'win' },
      { field: 'email', from: null, to: 'fay@example.com' },
    ]);
  });
});

describe('nothing is lost if Redis is down', () => {
  it('events are recorded and their happenings kept in the outbox while Redis does not answer', async () => {
    const down = await (await import('./harness')).startApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const w = await down.workspace();
      const answer = await down.request('POST', '/api/v1/events', {
        key: w.secretKey,
        body: { type: 'signup', email: 'offline@example.com' },
      });
      expect(answer.body).toMatchObject({ ok: true, status: 'recorded' });
      const rows = await happeningsOf(down.db, w.workspace.id);
      expect(rows.map((r: { kind: string }) => r.kind)).toEqual(['event', 'stage_entered']);
    } finally {
      await down.close();
    }
  });
});

describe('rate limit: 600 posts per secret key per ten minutes', () => {
  it('the 601st answers 429 rate_limited with Retry-After and writes nothing', async () => {
    for (let i = 0; i < 600; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, () =>
          t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { type: 'x' } }),
        ),
      );
    }
    const answer = await post({ type: 'signup', email: 'late@example.com' });
    expect(answer.status).toBe(429);
    expect(answer.body.error).toBe('rate_limited');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    const people = await t.db.query(`SELECT count(*)::int AS n FROM people WHERE workspace_id = $1`, [ws.workspace.id]);
    expect(people[0].n).toBe(0);
  });
});

describe('heartbeat', () => {
  it('counts each post by action, answer, origin and minute, with no bodies or addresses', async () => {
    await post({ type: 'signup', email: 'hb@example.com' });
    await post({ type: 'signup', email: 'hb@example.com' });
    await post({ type: 'identify', name: 'x' });
    const rows = (await t.gql('{ heartbeat { minute action answer origin count } }', {}, ws.secretKey)).data.heartbeat;
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'event', answer: 'recorded', origin: 'server', count: 2 }),
        expect.objectContaining({ action: 'identify', answer: 'nothing_to_identify', origin: 'server', count: 1 }),
      ]),
    );
    expect(Object.keys(rows[0]).sort()).toEqual(['action', 'answer', 'count', 'minute', 'origin']);
  });
});
