// Every event out as a stream (docs/rest.md#every-event-out-as-a-stream): GET /api/v1/events/export answers the
// timeline rows of [from, to) as NDJSON in (occurred_at, id) order, resumes after a line's cursor, leaves out an
// erased person and expired rows, gzips when asked, and takes only an owner's or admin's key; the CLI writes the
// same lines to a file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ExportedEvent } from '../libs/events/src/export/export-line';
import { eventually, memberKey, useApp } from './harness';
import { run } from './support/processes';

const t = useApp();

const FROM = '2026-03-01T00:00:00Z';
const TO = '2026-03-02T00:00:00Z';

type Line = ExportedEvent;

const query = (params: Record<string, string>) => `/api/v1/events/export?${new URLSearchParams(params)}`;

/** The export's answer: its status, headers and text (parsed lines when 200). */
async function exported(key: string, params: Record<string, string>) {
  const response = await fetch(t.url + query(params), {
    headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' },
  });
  const text = await response.text();
  const lines: Line[] =
    response.status === 200
      ? text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Line)
      : [];
  return { status: response.status, headers: response.headers, text, lines };
}

/** Posts one event with the secret key; answers the timeline row's id. */
async function post(key: string, event: Record<string, unknown>): Promise<string> {
  const answer = await t.request('POST', '/api/v1/events', { key, body: event });
  expect(answer.body).toMatchObject({ ok: true, status: 'recorded' });
  const rows = await t.db.query(
    `SELECT id FROM events WHERE person_id = $1 AND type = $2 AND occurred_at = $3 ORDER BY received_at DESC LIMIT 1`,
    [answer.body.id, event.type, event.occurred_at],
  );
  return rows[0].id as string;
}

/** A workspace with events posted inside the range (shuffled in time, two at one instant) and around it. */
async function postedRange() {
  const ws = await t.workspace();
  const at = (minutes: number) => new Date(Date.parse(FROM) + minutes * 60_000).toISOString();
  const inside: Array<{ id: string; at: string }> = [];
  const outside: string[] = [];
  const posts = [
    { type: 'pageview', email: 'ada@example.com', anon_id: 'anon-ada', occurred_at: at(30), properties: { path: '/' } },
    { type: 'report_viewed', account_id: 'acct-grace', occurred_at: at(5), detail: 'Q1 report' },
    { type: 'purchase', email: 'ada@example.com', occurred_at: at(90), value: 49.5, properties: { plan: 'pro' } },
    { type: 'report_viewed', email: 'linus@example.com', occurred_at: at(90) },
    { type: 'pageview', email: 'grace@example.com', occurred_at: FROM, source: { path: '/pricing' } },
    { type: 'report_viewed', email: 'ada@example.com', occurred_at: at(24 * 60 - 1) },
  ];
  for (const event of posts) inside.push({ id: await post(ws.secretKey, event), at: event.occurred_at });
  outside.push(await post(ws.secretKey, { type: 'pageview', email: 'ada@example.com', occurred_at: TO }));
  outside.push(await post(ws.secretKey, { type: 'pageview', email: 'ada@example.com', occurred_at: at(-1) }));
  const order = [...inside].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id)).map((e) => e.id);
  return { ws, order, outside };
}

describe('GET /api/v1/events/export', () => {
  it('answers exactly the events posted in [from, to), in occurred_at order with ties by id, each line whole', async () => {
    const { ws, order, outside } = await postedRange();
    const answer = await exported(ws.secretKey, { from: FROM, to: TO });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(answer.text.endsWith('\n')).toBe(true);
    expect(answer.lines.map((line) => line.id)).toEqual(order);
    for (const id of outside) expect(answer.text).not.toContain(id);
    const purchase = answer.lines.find((line) => line.type === 'purchase')!;
    const ada = answer.lines.find((line) => line.type === 'pageview' && line.properties?.path === '/')!;
    expect(purchase).toMatchObject({
      occurred_at: '2026-03-01T01:30:00.000Z',
      value: 49.5,
      properties: { plan: 'pro' },
      detail: null,
      person_id: ada.person_id,
      identities: { email: ['ada@example.com'], anon_id: ['anon-ada'], account_id: [] },
    });
    expect(answer.lines.find((line) => line.detail === 'Q1 report')).toMatchObject({
      type: 'report_viewed',
      identities: { email: [], anon_id: [], account_id: ['acct-grace'] },
    });
    expect(answer.lines[0]).toMatchObject({ occurred_at: '2026-03-01T00:00:00.000Z', source: { path: '/pricing' } });
    // A range with nothing in it answers no line at all.
    const empty = await exported(ws.secretKey, { from: '2020-01-01', to: '2020-01-02' });
    expect(empty).toMatchObject({ status: 200, text: '' });
  });

  it("resumes just after a line's cursor, the lines before it left out and none twice", async () => {
    const { ws, order } = await postedRange();
    const whole = await exported(ws.secretKey, { from: FROM, to: TO });
    for (const kept of [0, 2, order.length - 1]) {
      const rest = await exported(ws.secretKey, { from: FROM, to: TO, after: whole.lines[kept].cursor });
      expect(rest.lines.map((line) => line.id)).toEqual(order.slice(kept + 1));
    }
  });

  it('leaves out an erased person, and a row once it expired', async () => {
    const { ws, order } = await postedRange();
    const linus = await exported(ws.secretKey, { from: FROM, to: TO });
    const theirs = linus.lines.filter((line) => line.identities.email.includes('linus@example.com'));
    expect(theirs).toHaveLength(1);
    const erased = await t.request('DELETE', '/api/v1/people/linus@example.com', { key: ws.secretKey });
    expect(erased.body).toMatchObject({ ok: true });
    const after = await exported(ws.secretKey, { from: FROM, to: TO });
    expect(after.lines.map((line) => line.id)).toEqual(order.filter((id) => id !== theirs[0].id));
    expect(after.text).not.toContain('linus');
    expect(after.text).not.toContain(theirs[0].person_id);

    const soon = new Date(Date.now() + 1_500).toISOString();
    const expiring = await post(ws.secretKey, {
      type: 'pageview',
      email: 'ada@example.com',
      occurred_at: '2026-03-01T12:00:00Z',
      expires_at: soon,
    });
    expect((await exported(ws.secretKey, { from: FROM, to: TO })).text).toContain(expiring);
    await eventually(async () => !(await exported(ws.secretKey, { from: FROM, to: TO })).text.includes(expiring));
  });

  it('reads a range of many pages in order, every row once, and a reader leaving part-way frees its connection', async () => {
    const { ws } = await postedRange();
    const person = (await exported(ws.secretKey, { from: FROM, to: TO })).lines[0].person_id;
    // 12,345 rows written by SQL, several to an instant, so pages end inside a run of equal times.
    await t.db.query(
      `INSERT INTO events (workspace_id, id, occurred_at, person_id, type, properties)
       SELECT $1, 'evt_many' || lpad(i::text, 6, '0'), $2::timestamptz + (i / 7) * interval '1 second', $3,
              'pageview', jsonb_build_object('n', i, 'quote', 'a "b" \\ c')
         FROM generate_series(1, 12345) AS i`,
      [ws.workspace.id, '2026-03-01T02:00:00Z', person],
    );
    const whole = await exported(ws.secretKey, { from: FROM, to: TO });
    const many = whole.lines.filter((line) => line.id.startsWith('evt_many'));
    expect(many).toHaveLength(12_345);
    expect(new Set(whole.lines.map((line) => line.id)).size).toBe(whole.lines.length);
    const times = whole.lines.map((line) => Number(line.cursor.split('-')[0]));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(many.map((line) => line.id)).toEqual(many.map((line) => line.id).sort());
    expect(many[0].properties).toEqual({ n: 1, quote: 'a "b" \\ c' });

    const copying = () =>
      t.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY (WITH page%'`);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(t.url + query({ from: FROM, to: TO }), {
        headers: { authorization: `Bearer ${ws.secretKey}` },
      });
      req.on('response', (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', reject);
      req.end();
    });
    await eventually(async () => (await copying())[0].n === 0);
    expect((await exported(ws.secretKey, { from: FROM, to: TO })).lines).toHaveLength(whole.lines.length);
  });

  it('gzips the lines when the client accepts gzip, and not otherwise', async () => {
    const { ws } = await postedRange();
    const plain = await exported(ws.secretKey, { from: FROM, to: TO });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const raw = await new Promise<{ encoding?: string; vary?: string; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(
        t.url + query({ from: FROM, to: TO }),
        { headers: { authorization: `Bearer ${ws.secretKey}`, 'accept-encoding': 'br;q=0, gzip;q=0.8' } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () =>
            resolve({
              encoding: res.headers['content-encoding'],
              vary: res.headers.vary,
              body: Buffer.concat(parts),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(raw.encoding).toBe('gzip');
    expect(raw.vary).toBe('Accept-Encoding');
    expect(gunzipSync(raw.body).toString('utf8')).toBe(plain.text);
  });

  it("refuses a member's key, and takes an admin's", async () => {
    const { ws, order } = await postedRange();
    const member = await memberKey(t, ws, 'member@example.com');
    const refused = await t.request('GET', query({ from: FROM, to: TO }), { key: member.secretKey });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ ok: false, error: 'forbidden', message: expect.stringMatching(/owners/) });
    const admin = await memberKey(t, ws, 'admin@example.com', 'admin');
    expect((await exported(admin.secretKey, { from: FROM, to: TO })).lines.map((line) => line.id)).toEqual(order);
    const none = await t.request('GET', query({ from: FROM, to: TO }));
    expect(none.status).toBe(401);
  });

  it('refuses a range it cannot read with invalid_field, naming the fix', async () => {
    const ws = await t.workspace();
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ to: TO }, /Send from as an ISO 8601/],
      [{ from: FROM }, /Send to as an ISO 8601/],
      [{ from: 'yesterday', to: TO }, /from is not an ISO 8601/],
      [{ from: '2026-02-30', to: TO }, /from is not an ISO 8601/],
      [{ from: TO, to: FROM }, /Send a to after from/],
      [{ from: FROM, to: FROM }, /Send a to after from/],
      [{ from: FROM, to: TO, after: 'not a cursor!' }, /after is not an export cursor/],
      [{ from: FROM, to: TO, after: Buffer.from('soon:evt_1').toString('base64url') }, /after is not an export cursor/],
    ];
    for (const [params, message] of cases) {
      const answer = await t.request('GET', query(params), { key: ws.secretKey });
      expect({ params, status: answer.status, body: answer.body }).toMatchObject({
        status: 400,
        body: { ok: false, error: 'invalid_field', message: expect.stringMatching(message) },
      });
    }
    const twice = await t.request('GET', `${query({ from: FROM, to: TO })}&from=${FROM}`, { key: ws.secretKey });
    expect(twice.body).toMatchObject({
      ok: false,
      error: 'invalid_field',
      message: 'Send from once, as a single value.',
    });
  });
});

describe('npm run cli -- events export', () => {
  it('writes the same lines to a file, gzipped for a .gz name, and prints the last cursor to resume with', async () => {
    const { ws } = await postedRange();
    const answer = await exported(ws.secretKey, { from: FROM, to: TO });
    const dir = mkdtempSync(join(tmpdir(), 'events-export-'));
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: t.config.databaseUrl,
      REDIS_URL: t.config.redisUrl,
      REDIS_PREFIX: t.config.redisPrefix,
      APP_SECRET: t.config.appSecret,
      LOG_LEVEL: 'warn',
    };
    const cli = async (file: string, more: string[] = []) => {
      const args = ['events', 'export', '--workspace', ws.workspace.slug, '--from', FROM, '--to', TO, '--out', file];
      const running = run(process.execPath, ['scripts/run.js', 'apps/api/src/cli', ...args, ...more], {
        cwd: join(__dirname, '..'),
        env,
      });
      expect((await running.exited).code).toBe(0);
      return JSON.parse(running.output().trim().split('\n').pop()!);
    };
    try {
      const plain = await cli(join(dir, 'events.ndjson'));
      expect(plain).toMatchObject({ ok: true, lines: answer.lines.length, cursor: answer.lines.at(-1)!.cursor });
      expect(readFileSync(join(dir, 'events.ndjson'), 'utf8')).toBe(answer.text);
      const rest = await cli(join(dir, 'rest.ndjson.gz'), ['--after', answer.lines[1].cursor]);
      expect(rest).toMatchObject({ ok: true, lines: answer.lines.length - 2 });
      const lines = gunzipSync(readFileSync(join(dir, 'rest.ndjson.gz'))).toString('utf8');
      expect(lines).toBe(answer.text.split('\n').slice(2).join('\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
