// Erasure leaves no trace and no way around (docs/security.md#a-persons-data-on-request): a first-touch
// campaign carrying the person's email is rewritten in event_touches; a Segment alias or identify naming an
// erased id under another kind, and an automation's start address posted with an erased email, answer
// suppressed and write nothing; the request lines of the export and the erasure name the record, never
// the email (an api process of its own, logging as in production, on this file's database).
import { join } from 'node:path';
import { freePort } from '@app/platform';
import { useApp, useWorkspace } from './harness';
import { run } from './support/processes';
import { postSegment } from './support/segment';

const t = useApp();
const ws = useWorkspace(t);

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const erase = (who: string) => t.request('DELETE', `/api/v1/people/${encodeURIComponent(who)}`, { key: ws.secretKey });
const suppressed = { ok: true, status: 'suppressed' };

/** Identities, people and runs of the workspace holding any of `values` (emails compared lower-cased). */
async function holding(values: string[]) {
  const [row] = await t.db.query(
    `SELECT (SELECT count(*) FROM identities WHERE workspace_id = $1 AND lower(value) = ANY($2::text[]))::int AS identities,
            (SELECT count(*) FROM people WHERE workspace_id = $1 AND lower(coalesce(email, '')) = ANY($2::text[]))::int AS people`,
    [ws.workspace.id, values.map((v) => v.toLowerCase())],
  );
  return row as { identities: number; people: number };
}

it('a first touch whose campaign carries her email is rewritten in event_touches; a first touch of someone else stays', async () => {
  const email = 'touch.ada@example.com';
  const signup = (who: string, campaign: string) =>
    post({
      type: 'signup',
      email: who,
      source: { path: '/welcome', utm: { source: 'newsletter', medium: 'email', campaign } },
    });
  expect((await signup(email, `welcome-${email}`)).body).toMatchObject({ ok: true, status: 'recorded' });
  expect((await signup('touch.bob@example.com', 'spring-sale')).body).toMatchObject({ ok: true });
  const touches = () =>
    t.db.query(`SELECT source, medium, campaign FROM event_touches WHERE workspace_id = $1 ORDER BY campaign`, [
      ws.workspace.id,
    ]);
  expect(await touches()).toEqual([
    { source: 'newsletter', medium: 'email', campaign: 'spring-sale' },
    { source: 'newsletter', medium: 'email', campaign: `welcome-${email}` },
  ]);

  const erased = await erase(email);
  expect(erased.body).toMatchObject({ ok: true });
  expect(erased.body.tables).toEqual(expect.arrayContaining([{ table: 'event_touches', rows: 1 }]));
  expect(await touches()).toEqual([
    { source: 'newsletter', medium: 'email', campaign: '(erased)' },
    { source: 'newsletter', medium: 'email', campaign: 'spring-sale' },
  ]);
  const left = await t.db.query(`SELECT 1 FROM event_touches WHERE (source || medium || campaign) ILIKE $1`, [
    `%${email}%`,
  ]);
  expect(left).toEqual([]);
});

it('a Segment alias or identify naming an erased account id or email under another kind answers suppressed and makes no one', async () => {
  const email = 'alias.ada@example.com';
  const account = 'acct-alias-ada-77';
  expect((await post({ type: 'signup', email, account_id: account, anon_id: 'anon-alias-ada' })).body).toMatchObject({
    ok: true,
  });
  expect((await erase(email)).body).toMatchObject({ ok: true, suppressedKeys: 3 });
  const people = async () =>
    (await t.db.query(`SELECT count(*)::int AS n FROM people WHERE workspace_id = $1`, [ws.workspace.id]))[0].n;
  const before = await people();

  const segment = (path: string, body: unknown) => postSegment(t.url, path, body, { key: ws.secretKey });
  // The alias files previousId as an anon_id: the erased account id must not come back as one.
  const alias = await segment('/v1/alias', { userId: 'u-new-after-erasure', previousId: account });
  expect(alias.status).toBe(200);
  expect(alias.body).toMatchObject({ success: true, ...suppressed });
  expect((await segment('/v1/alias', { userId: 'u-new-2', previousId: email.toUpperCase() })).body).toMatchObject(
    suppressed,
  );
  // A userId is an account_id: an erased email there is still hers.
  expect((await segment('/v1/identify', { userId: email, traits: { plan: 'pro' } })).body).toMatchObject(suppressed);
  expect((await segment('/v1/alias', { userId: account, previousId: 'anon-someone-new' })).body).toMatchObject(
    suppressed,
  );
  // The events endpoint is the same door underneath.
  expect((await post({ type: 'pageview', anon_id: account })).body).toEqual(suppressed);

  expect(await people()).toBe(before);
  expect(await holding([email, account, 'u-new-after-erasure', 'u-new-2', 'anon-someone-new'])).toEqual({
    identities: 0,
    people: 0,
  });
  // An alias naming no one erased still joins as before.
  expect((await segment('/v1/alias', { userId: 'u-fresh', previousId: 'anon-fresh' })).body).toMatchObject({
    ok: true,
    status: expect.stringMatching(/^(created|linked|merged)$/),
  });
});

it("an automation's start address posted with an erased email answers suppressed and starts no run", async () => {
  const created = await t.gql(
    `mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } address } }`,
    { input: { name: 'Hook', trigger: { kind: 'webhook' }, steps: [{ kind: 'wait', seconds: 3600 }] } },
    ws.secretKey,
  );
  expect(created.errors).toBeUndefined();
  const { automation, address } = created.data.createAutomation;
  await t.gql(
    `mutation($id: ID!) { setAutomationStatus(id: $id, status: "running") { id } }`,
    { id: automation.id },
    ws.secretKey,
  );
  const start = (body: unknown) => t.request('POST', new URL(address).pathname, { raw: JSON.stringify(body) });
  const runs = async () =>
    (await t.db.query(`SELECT count(*)::int AS n FROM automation_runs WHERE automation_id = $1`, [automation.id]))[0].n;

  const email = 'start.ada@example.com';
  expect((await start({ email })).body).toEqual({ ok: true, status: 'started' });
  expect(await runs()).toBe(1);
  expect((await erase(email)).body).toMatchObject({ ok: true });
  expect(await runs()).toBe(0); // her run went with her

  for (const variant of [email, ` ${email.toUpperCase()} `]) {
    const answer = await start({ email: variant, properties: { plan: 'pro' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, status: 'suppressed' });
  }
  expect(await runs()).toBe(0);
  expect(await holding([email])).toEqual({ identities: 0, people: 0 });
  // Someone not erased still starts a run.
  expect((await start({ email: 'start.bob@example.com' })).body).toEqual({ ok: true, status: 'started' });
  expect(await runs()).toBe(1);
});

it('the request lines of the export and the erasure, in REST and GraphQL, name the record and never the email', async () => {
  const email = 'logged.ada@example.com';
  const person = (await post({ type: 'signup', email })).body.id as string;
  const other = 'logged.bob@example.com';
  const bob = (await post({ type: 'signup', email: other })).body.id as string;
  // An api of its own, logging a JSON line per request as in production.
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    PORT: String(port),
    DATABASE_URL: t.config.databaseUrl,
    REDIS_URL: t.config.redisUrl,
    REDIS_PREFIX: t.config.redisPrefix,
    APP_SECRET: t.config.appSecret,
    UNSAFE_ALLOW_PRIVATE_TARGETS: '',
  };
  const api = run(process.execPath, ['scripts/run.js', 'apps/api/src/main'], { cwd: join(__dirname, '..'), env });
  try {
    await api.waitFor('api listening', 60_000);
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { authorization: `Bearer ${ws.secretKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: answer.status, text: await answer.text() };
    };
    expect((await call('GET', `/api/v1/people/${encodeURIComponent(email)}/export`)).status).toBe(200);
    expect((await call('GET', `/api/v1/people/${email}/export?who=${email}`)).status).toBe(200);
    const exported = await call('POST', '/graphql', {
      query: 'query($p: String!) { personExport(person: $p) }',
      variables: { p: email },
    });
    expect(exported.text).toContain(person);
    expect((await call('GET', `/api/v1/people/nobody%40example.com/export`)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/people/${email}`)).status).toBe(200);
    const erased = await call('POST', '/graphql', {
      query: 'mutation($p: String!) { erasePerson(person: $p) { id } }',
      variables: { p: other },
    });
    expect(erased.text).toContain('era_');
    await api.waitFor(`DELETE /api/v1/people/${person} 200`, 10_000);
    await api.waitFor(/"url":"\/graphql"[\s\S]*"url":"\/graphql"/, 10_000);

    const lines = api.output();
    for (const address of [email, other, 'nobody@example.com'])
      for (const form of [address, encodeURIComponent(address)]) expect(lines.toLowerCase()).not.toContain(form);
    for (const local of ['logged.ada', 'logged.bob']) expect(lines).not.toContain(local);
    expect(lines).toContain(`GET /api/v1/people/${person}/export 200`);
    expect(lines).toContain(`GET /api/v1/people/…/export 404 no_such_person`);
    // The line's request field, written as the request arrives, names no one yet.
    const exportLine = lines.split('\n').find((l) => l.includes(`GET /api/v1/people/${person}/export 200`))!;
    expect(JSON.parse(exportLine).req).toMatchObject({ method: 'GET', url: '/api/v1/people/…/export' });
    expect(bob).toMatch(/^per_/);
  } finally {
    api.child.kill('SIGKILL');
    await api.exited;
  }
}, 120_000);
