// docs/security.md#input-every-door-refuses-what-no-door-can-store: the hostile inputs found against a running
// instance, each answered with a refusal in the envelope (never a 500, never an empty body) and writing nothing.
import { gzipSync } from 'node:zlib';
import { MAX_JSON_DEPTH } from '@app/edge';
import { useApp, useWorkspace } from './harness';

const SITE = 'https://shop.example.com';
const t = useApp();
const ws = useWorkspace(t, { origins: [SITE] }, 'all');
beforeAll(() => t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey));

const rows = async () =>
  Number(
    (
      await t.db.query(
        `SELECT (SELECT count(*) FROM people) + (SELECT count(*) FROM events) + (SELECT count(*) FROM messages) AS n`,
      )
    )[0].n,
  );

const envelope = (error: string) =>
  expect.objectContaining({ ok: false, error, message: expect.stringMatching(/\w+.*[.:]/) });

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { deeper: value };
  return value;
}

describe('a NUL or a lone surrogate in any string is refused with invalid_field naming the field', () => {
  const cases: Array<
    [string, string, () => { path: string; body: unknown; key?: string; headers?: Record<string, string> }, RegExp]
  > = [
    [
      'NUL in anon_id (server)',
      'POST',
      () => ({ path: '/api/v1/events', key: ws.secretKey, body: { type: 'signup', anon_id: 'a\u0000b' } }),
      /^anon_id /,
    ],
    [
      'NUL in a property',
      'POST',
      () => ({
        path: '/api/v1/events',
        key: ws.secretKey,
        body: { type: 'signup', email: 'a@example.com', properties: { plan: 'x\u0000' } },
      }),
      /^properties\.plan /,
    ],
    [
      'NUL in a batch item',
      'POST',
      () => ({
        path: '/api/v1/events',
        key: ws.secretKey,
        body: {
          events: [
            { type: 'signup', anon_id: 'ok' },
            { type: 'signup', anon_id: '\u0000' },
          ],
        },
      }),
      /^events\[1\]\.anon_id /,
    ],
    [
      'lone surrogate in a property',
      'POST',
      () => ({
        path: '/api/v1/events',
        key: ws.secretKey,
        body: { type: 'signup', email: 'a@example.com', properties: { note: 'x\ud800' } },
      }),
      /^properties\.note .*lone surrogate/,
    ],
    [
      'lone low surrogate in a key',
      'POST',
      () => ({
        path: '/api/v1/events',
        key: ws.secretKey,
        body: { type: 'signup', email: 'a@example.com', properties: { ['k\udc00']: 1 } },
      }),
      /^a key in properties /,
    ],
    [
      'NUL in a subject',
      'POST',
      () => ({
        path: '/api/v1/messages',
        key: ws.secretKey,
        body: { to: 'a@example.com', subject: 'Hi\u0000', body: 'Hello there' },
      }),
      /^subject /,
    ],
    [
      'NUL in consent (public door)',
      'POST',
      () => ({
        path: `/api/in/${ws.publicKey}/subscribe`,
        headers: { origin: SITE },
        body: { email: 'v@example.com', list: 'news', consent: { text: 'Yes\u0000' } },
      }),
      /^consent\.text /,
    ],
    [
      'lone surrogate in a public identify',
      'POST',
      () => ({
        path: `/api/in/${ws.publicKey}/identify`,
        headers: { origin: SITE },
        body: { email: 'v@example.com', name: '\udfff' },
      }),
      /^name /,
    ],
  ];
  it.each(cases)('%s', async (_name, method, make, field) => {
    const { path, body, key, headers } = make();
    const before = await rows();
    const answer = await t.request(method, path, { key, body, headers });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(envelope('invalid_field'));
    expect(answer.body.message).toMatch(field);
    expect(await rows()).toBe(before);
  });

  it('a NUL in the public key of the path is refused, not a 500', async () => {
    const answer = await t.request('POST', `/api/in/wk_${'%00'}abc/event`, {
      body: { type: 'pageview', anon_id: 'a' },
      headers: { origin: SITE },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(envelope('invalid_field'));
    expect(answer.body.message).toMatch(/path/);
  });

  it('?person=%00 is refused naming the query parameter', async () => {
    const answer = await t.request('GET', '/api/v1/messages?person=%00', { key: ws.secretKey });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(envelope('invalid_field'));
    expect(answer.body.message).toMatch(/^person /);
  });

  it('a %-escape that is not UTF-8 in the path is refused', async () => {
    const answer = await t.request('GET', '/api/v1/people/%ED%A0%80/messages', { key: ws.secretKey });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(envelope('invalid_field'));
  });

  it('GraphQL variables are checked too, answered in GraphQL shape', async () => {
    const answer = await t.request('POST', '/graphql', {
      key: ws.secretKey,
      body: {
        query: 'mutation($i: CreateListInput!) { createList(input: $i) { id } }',
        variables: { i: { address: 'x', name: 'N\u0000' } },
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toEqual({
      message: expect.stringMatching(/^variables\.i\.name /),
      extensions: { code: 'invalid_field', status: 400 },
    });
  });
});

describe(`JSON nested deeper than ${MAX_JSON_DEPTH} levels is refused with invalid_field`, () => {
  it('properties 10,000 deep', async () => {
    const before = await rows();
    const raw = `{"type":"signup","email":"deep@example.com","properties":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const answer = await t.request('POST', '/api/v1/events', { key: ws.secretKey, raw });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(envelope('invalid_field'));
    expect(answer.body.message).toMatch(/^properties(\.a)+ is nested deeper than 32 levels/);
    expect(await rows()).toBe(before);
  });

  it('exactly the limit is accepted', async () => {
    // The body is level 1, so properties may hold MAX_JSON_DEPTH - 1 levels of objects.
    const answer = await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: { type: 'signup', email: 'deep-ok@example.com', properties: nested(MAX_JSON_DEPTH - 1) },
    });
    expect(answer.status).toBe(200);
  });
});

describe('a body that does not match its Content-Encoding answers 400 invalid_json', () => {
  it.each([['gzip'], ['br'], ['deflate'], ['compress'], ['x-unknown']])(
    'Content-Encoding: %s on a plain body',
    async (encoding) => {
      const before = await rows();
      const answer = await t.request('POST', '/api/v1/events', {
        key: ws.secretKey,
        raw: JSON.stringify({ type: 'signup', email: 'enc@example.com' }),
        headers: { 'content-encoding': encoding },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(envelope('invalid_json'));
      expect(await rows()).toBe(before);
    },
  );

  it('a body that really is gzip is read', async () => {
    const response = await fetch(`${t.url}/api/v1/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        authorization: `Bearer ${ws.secretKey}`,
      },
      body: gzipSync(JSON.stringify({ type: 'signup', email: 'gz@example.com' })),
    });
    expect(response.status).toBe(200);
  });
});

describe('framework-level answers carry the envelope', () => {
  it('431: a query string over the header limit', async () => {
    const answer = await t.request('GET', `/api/v1/messages?person=${'x'.repeat(20_000)}`, { key: ws.secretKey });
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual(envelope('headers_too_large'));
  });

  it('431: a header over the limit', async () => {
    const answer = await t.request('POST', '/api/v1/events', {
      key: ws.secretKey,
      body: {},
      headers: { 'x-filler': 'y'.repeat(20_000) },
    });
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual(envelope('headers_too_large'));
  });

  it.each([
    ['an unknown route', 'GET', '/api/v1/nothing-here', 404, 'not_found'],
    ['a method no route has', 'DELETE', '/api/v1/events', 404, 'not_found'],
    ['broken JSON', 'POST', '/api/v1/events', 400, 'invalid_json'],
    ['a body over 64 KB', 'POST', '/api/v1/events', 413, 'too_large'],
  ])('%s', async (_name, method, path, status, code) => {
    const raw =
      code === 'too_large'
        ? `{"type":"signup","email":"a@example.com","p":"${'x'.repeat(70_000)}"}`
        : code === 'invalid_json'
          ? '{"type":'
          : undefined;
    const answer = await t.request(method, path, { key: ws.secretKey, raw });
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual(envelope(code));
  });

  it('a GraphQL body that is not JSON answers in GraphQL shape', async () => {
    const answer = await t.request('POST', '/graphql', { key: ws.secretKey, raw: '{"query": "{ lists { id } }"' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      errors: [{ message: expect.any(String), extensions: { code: 'invalid_json', status: 400 } }],
    });
  });
});
