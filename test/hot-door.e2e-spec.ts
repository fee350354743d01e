// POST /api/v1/events is answered by a hot door (libs/edge/src/http/door/hot-door.ts), before
// Express and Nest. A query string sends the same post through Express, so each case here is posted both
// ways and must be answered alike: status, content type, X-Request-Id, Retry-After and the envelope.
import { request as httpRequest } from 'node:http';
import { HotDoors } from '@app/edge';
import { contextsAtRest } from '@app/platform';
import { useApp, useWorkspace } from './harness';

const t = useApp({ worker: false });
const ws = useWorkspace(t, {}, 'all');

type Case = {
  name: string;
  raw?: (tag: string) => string;
  headers?: Record<string, string>;
  key?: () => string | undefined;
  hot?: boolean;
};

const json = (value: unknown) => () => JSON.stringify(value);
const cases: Case[] = [
  { name: 'one event', raw: (tag) => JSON.stringify({ type: 'pageview', email: `one-${tag}@example.com` }) },
  {
    name: 'an identify of a new person',
    raw: (tag) => JSON.stringify({ type: 'identify', email: `new-${tag}@example.com`, name: 'Ada' }),
  },
  {
    name: 'a batch',
    raw: (tag) =>
      JSON.stringify({
        events: [
          { type: 'signup', email: `b1-${tag}@example.com` },
          { type: 'pageview', anon_id: `b2-${tag}` },
        ],
      }),
  },
  {
    name: 'a batch with a refused item (207)',
    raw: (tag) => JSON.stringify({ events: [{ type: 'signup', email: `c1-${tag}@example.com` }, { type: 'signup' }] }),
  },
  { name: 'a refused item (no identity)', raw: json({ type: 'signup' }) },
  { name: 'invalid JSON', raw: () => '{"type":' },
  { name: 'an empty body', raw: () => '' },
  { name: 'a JSON scalar', raw: () => '"signup"' },
  { name: 'a JSON array', raw: () => '[1, 2]' },
  { name: 'a NUL in a string', raw: () => '{"type":"pageview","email":"a\\u0000b@example.com"}' },
  { name: 'a lone surrogate', raw: () => '{"type":"pageview","email":"a\\ud800@example.com"}' },
  {
    name: 'a byte-order mark before the JSON',
    raw: (tag) => `\ufeff${JSON.stringify({ type: 'pageview', anon_id: `bom-${tag}` })}`,
  },
  {
    name: 'bytes that are not UTF-8',
    raw: () => Buffer.from([0x7b, 0x22, 0x74, 0xff, 0xfe, 0x22, 0x7d]).toString('latin1'),
  },
  {
    name: 'text/plain',
    raw: (tag) => JSON.stringify({ type: 'pageview', anon_id: `plain-${tag}` }),
    headers: { 'content-type': 'text/plain' },
  },
  { name: 'no key', raw: json({ type: 'pageview', anon_id: 'x' }), key: () => undefined },
  {
    name: 'a wrong key',
    raw: json({ type: 'pageview', anon_id: 'x' }),
    key: () => 'sk_live_notakeyofanyworkspace0000',
  },
  { name: 'a public key', raw: json({ type: 'pageview', anon_id: 'x' }), key: () => ws.publicKey },
  { name: 'a sane request id', raw: json({ type: 'signup' }), headers: { 'x-request-id': 'trace-42.a' } },
  { name: 'an unusable request id', raw: json({ type: 'signup' }), headers: { 'x-request-id': 'no spaces allowed' } },
  // Not taken by the hot door: Express answers both.
  {
    name: 'a charset',
    raw: json({ type: 'signup' }),
    headers: { 'content-type': 'application/json; charset=utf-8' },
    hot: false,
  },
  {
    name: 'a charset in capitals',
    raw: json({ type: 'signup' }),
    headers: { 'content-type': 'application/json; Charset=UTF-8' },
    hot: false,
  },
  {
    name: 'over 64 KB',
    raw: () => JSON.stringify({ type: 'pageview', anon_id: 'big', properties: { pad: 'x'.repeat(70_000) } }),
    hot: false,
  },
];

/** Ids differ between the two posts (new people); everything else must not. */
const normal = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/per_[0-9A-Za-z]+/g, 'per_…'));

async function post(path: string, c: Case, tag: string) {
  const key = c.key ? c.key() : ws.secretKey;
  const before = t.app.get(HotDoors).answered;
  const answer = await t.request('POST', path, { key, raw: c.raw!(tag), headers: c.headers });
  return { ...answer, hot: t.app.get(HotDoors).answered > before };
}

describe('the hot door answers POST /api/v1/events as the Express route does', () => {
  it.each(cases.map((c) => [c.name, c]))('%s', async (_name, c) => {
    const hot = await post('/api/v1/events', c as Case, 'hot');
    const express = await post('/api/v1/events?via=express', c as Case, 'express');
    expect(hot.hot).toBe((c as Case).hot ?? true);
    expect(express.hot).toBe(false);
    expect(hot.status).toBe(express.status);
    expect(normal(hot.body)).toEqual(normal(express.body));
    for (const header of ['content-type', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining'])
      expect([header, hot.headers.get(header)]).toEqual([header, express.headers.get(header)]);
    const given = (c as Case).headers?.['x-request-id'];
    if (given === 'trace-42.a')
      expect([hot.headers.get('x-request-id'), express.headers.get('x-request-id')]).toEqual([given, given]);
    else expect(hot.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('records what it accepted, once', async () => {
    const purchases = async () =>
      Number(
        (
          await t.db.query(`SELECT count(*) AS n FROM events WHERE workspace_id = $1 AND type = 'purchase'`, [
            ws.workspace.id,
          ])
        )[0].n,
      );
    const before = await purchases();
    const answer = await post(
      '/api/v1/events',
      { name: 'write', raw: json({ type: 'purchase', email: 'hot-buyer@example.com', value: 12 }) },
      '',
    );
    expect(answer).toMatchObject({ status: 200, hot: true, body: { ok: true, status: 'recorded' } });
    expect((await purchases()) - before).toBe(1);
  });
});

describe('async contexts at rest (docs/decisions.md#ingest-speed)', () => {
  /** A post whose body is sent in two parts: `between` runs while the app waits for the second. */
  async function postInParts(path: string, between: () => void): Promise<number> {
    const body = JSON.stringify({ type: 'pageview', anon_id: `parts-${path.length}` });
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${t.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ws.secretKey}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => (res.resume(), res.on('end', () => resolve(res.statusCode!))));
      req.on('error', reject);
      req.write(body.slice(0, 5));
      setTimeout(() => (between(), req.end(body.slice(5))), 200);
    });
  }

  it('a request Express answers holds them until its answer closes; the hot door holds none', async () => {
    const before = contextsAtRest.held;
    let during = -1;
    expect(await postInParts('/api/v1/events?via=express', () => (during = contextsAtRest.held))).toBe(200);
    expect(during).toBe(before + 1);
    await new Promise((r) => setImmediate(r));
    expect(contextsAtRest.held).toBe(before);
    expect(await postInParts('/api/v1/events', () => (during = contextsAtRest.held))).toBe(200);
    expect(during).toBe(before);
  });
});
