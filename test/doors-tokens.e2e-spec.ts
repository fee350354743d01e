// Third-party doors end to end, part two: auth_b (Kinde: the body is an RS256 token checked against
// the domain's key set, served here from 127.0.0.1) and hosting (GitHub: X-Hub-Signature HMAC)
// (docs/rest.md#third-party-doors).
import { createHmac, generateKeyPairSync, KeyObject } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { exportJWK, SignJWT } from 'jose';
import { useApp } from './harness';
import {
  alterOneByte,
  connectDoor,
  eventTypes,
  flatTimeline,
  DOORS,
  footprint,
  person,
  postRaw,
  webhooksFor,
  workspaceWithReceiver,
} from './support/doors';
import { githubPing, githubSponsorship, githubStar, kindeEvent, kindeUser } from './support/provider-events';

const t = useApp({ worker: true });

describe('auth_b (Kinde)', () => {
  type Pair = { kid: string; privateKey: KeyObject; publicKey: KeyObject };
  const pair = (kid: string): Pair => ({ kid, ...generateKeyPairSync('rsa', { modulusLength: 2048 }) });
  const k1 = pair('4c:fa:9e:d6:47:23:b7:39');
  const k2 = pair('k2-rotated');
  const stranger = pair('k2-rotated');
  let served: Pair[] = [k1];
  let fetches = 0;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url !== '/.well-known/jwks') return res.writeHead(404).end();
      fetches++;
      void Promise.all(
        served.map(async (k) => ({ ...(await exportJWK(k.publicKey)), kid: k.kid, alg: 'RS256', use: 'sig' })),
      ).then((keys) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const token = (claims: Record<string, unknown>, key: Pair = k1, iat = Math.floor(Date.now() / 1000)) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuedAt(iat)
      .sign(key.privateKey);
  const post = (path: string, jwt: string) => postRaw(t, path, jwt, { 'content-type': 'application/jwt' });

  it('user.created -> signup with name and email; user.authenticated -> sign_in by the kp_ id; the webhook follows', async () => {
    const { ws, r } = await workspaceWithReceiver(t);
    const door = await connectDoor(t, ws, { kind: 'auth_b', domain: origin });
    expect((await t.gql(DOORS, {}, ws.secretKey)).data.doors[0]).toMatchObject({ kind: 'auth_b', domain: origin });
    const created = kindeEvent(
      'user.created',
      kindeUser({
        id: 'kp_65b28d71bba14fa380d56d2d8d3503da',
        email: 'daniel@example.com',
        first: 'Daniel',
        last: 'Rivers',
      }),
    );
    expect((await post(door.path, await token(created))).body).toEqual({ ok: true, status: 'recorded' });
    const hooks = await webhooksFor(r.received, 'signup', 'account');
    expect(hooks.event.record).toMatchObject({ email: 'daniel@example.com', name: 'Daniel Rivers', stage: 'account' });
    expect(
      (
        await post(
          door.path,
          await token(kindeEvent('user.authenticated', { id: 'kp_65b28d71bba14fa380d56d2d8d3503da' })),
        )
      ).body.status,
    ).toBe('recorded');
    const p = await person(t, ws, 'daniel@example.com');
    expect(eventTypes(p)).toEqual(['sign_in', 'signup']);
    expect(p.identities).toEqual(
      expect.arrayContaining([{ kind: 'account_id', value: 'kp_65b28d71bba14fa380d56d2d8d3503da' }]),
    );
    await r.close();
  });

  it('a rotated key (new kid) is picked up with one fetch; a token of another key is refused; an unknown kid within the minute fetches nothing more', async () => {
    const ws = await t.workspace();
    const door = await connectDoor(t, ws, { kind: 'auth_b', domain: origin });
    served = [k1];
    expect((await post(door.path, await token(kindeEvent('user.authenticated', { id: 'kp_rot' })))).status).toBe(200);
    served = [k2];
    const before = fetches;
    expect((await post(door.path, await token(kindeEvent('user.authenticated', { id: 'kp_rot' }), k2))).body).toEqual({
      ok: true,
      status: 'recorded',
    });
    expect(fetches).toBe(before + 1);

    const start = await footprint(t, ws, door.id);
    const forged = await post(door.path, await token(kindeEvent('user.authenticated', { id: 'kp_rot' }), stranger));
    expect(forged.status).toBe(401);
    expect(forged.body.error).toBe('invalid_signature');
    const unknownKid = await post(
      door.path,
      await token(kindeEvent('user.authenticated', { id: 'kp_rot' }), pair('k3')),
    );
    expect(unknownKid.status).toBe(401);
    expect(fetches).toBe(before + 1);
    expect(await footprint(t, ws, door.id)).toEqual(start);
  });

  it('stale iat, altered token, unknown token, oversized body, unmapped type and a replayed event_id each change nothing', async () => {
    // The key set the domain serves after the rotation above (the cache is per domain, as Kinde's keys are).
    served = [k2];
    const ws = await t.workspace();
    const door = await connectDoor(t, ws, { kind: 'auth_b', domain: origin });
    const claims = kindeEvent('user.created', kindeUser({ email: 'still@example.com' }));
    const start = await footprint(t, ws, door.id);
    expect((await post(door.path, await token(claims, k2, Math.floor(Date.now() / 1000) - 400))).status).toBe(401);
    const good = await token(claims, k2);
    const [h, p, s] = good.split('.');
    const altered = Buffer.from(alterOneByte(Buffer.from(p, 'base64url').toString(), '"email":"')).toString(
      'base64url',
    );
    expect((await post(door.path, `${h}.${altered}.${s}`)).status).toBe(401);
    // One bit of the signature's first byte. Replacing its last two characters left the last byte as it was
    // when that byte was 0 (their other bits are padding): a 200 in CI, about one run in 256.
    const signature = Buffer.from(s, 'base64url');
    signature[0] ^= 1;
    expect((await post(door.path, `${h}.${p}.${signature.toString('base64url')}`)).status).toBe(401);
    expect((await post(door.path.replace(/[^/]+$/, 'Unknown0123456789abcdefghijklmno'), good)).status).toBe(404);
    expect((await post(door.path, good + '.'.repeat(257 * 1024))).status).toBe(413);
    expect(await footprint(t, ws, door.id)).toEqual(start);

    expect((await post(door.path, await token(kindeEvent('organization.created', { id: 'kp_x' }), k2))).body).toEqual({
      ok: true,
      status: 'ignored',
    });
    expect(await footprint(t, ws, door.id)).toEqual({ ...start, receipts: 1 });
    expect((await post(door.path, good)).body).toEqual({ ok: true, status: 'recorded' });
    const recorded = await footprint(t, ws, door.id);
    expect((await post(door.path, await token(claims, k2))).body).toEqual({ ok: true, status: 'recorded' });
    expect(await footprint(t, ws, door.id)).toEqual(recorded);
  });
});

describe('hosting (GitHub)', () => {
  const SECRET = "It's a Secret to Everybody";
  let n = 0;
  const delivery = (event: string, payload: unknown, o: { secret?: string; id?: string; sha256?: boolean } = {}) => {
    const raw = JSON.stringify(payload);
    const id = o.id ?? `72d3162e-cc78-11e3-81ab-${String(n++).padStart(12, '0')}`;
    const sha1 = `sha1=${createHmac('sha1', o.secret ?? SECRET)
      .update(raw)
      .digest('hex')}`;
    const sha256 = `sha256=${createHmac('sha256', o.secret ?? SECRET)
      .update(raw)
      .digest('hex')}`;
    return {
      raw,
      id,
      headers: {
        'x-github-event': event,
        'x-github-delivery': id,
        'x-hub-signature': sha1,
        ...(o.sha256 ? { 'x-hub-signature-256': sha256 } : {}),
        'user-agent': 'GitHub-Hookshot/044aadd',
      },
    };
  };

  it('a sponsorship: purchase (Purchaser, value in dollars) and subscription_started, and the webhooks; ping answers 200', async () => {
    const { ws, r } = await workspaceWithReceiver(t);
    const door = await connectDoor(t, ws, { kind: 'hosting', secret: SECRET });
    const ping = delivery('ping', githubPing());
    expect((await postRaw(t, door.path, ping.raw, ping.headers)).status).toBe(200);
    const created = delivery('sponsorship', githubSponsorship('created', { login: 'monalisa', id: 2, cents: 500 }), {
      sha256: true,
    });
    expect((await postRaw(t, door.path, created.raw, created.headers)).body).toEqual({ ok: true, status: 'recorded' });
    const hooks = await webhooksFor(r.received, 'purchase', 'purchaser');
    expect(hooks.event.data).toMatchObject({ value: 5 });
    expect(hooks.event.record).toMatchObject({ name: 'monalisa', stage: 'purchaser' });
    const [row] = await t.db.query(`SELECT person_id FROM identities WHERE workspace_id = $1 AND value = 'github:2'`, [
      ws.workspace.id,
    ]);
    const p = flatTimeline(
      (
        await t.gql(
          `query($id: String) { person(id: $id) { stage engaged timeline(first: 50) { edges { node { type value } } } } }`,
          { id: row.person_id },
          ws.secretKey,
        )
      ).data.person,
    );
    expect(eventTypes(p).sort()).toEqual(['purchase', 'subscription_started']);
    expect(p).toMatchObject({ stage: 'purchaser', engaged: true });
    const cancelled = delivery('sponsorship', githubSponsorship('cancelled', { id: 2 }));
    await postRaw(t, door.path, cancelled.raw, cancelled.headers);
    await webhooksFor(r.received, 'subscription_cancelled', 'churned');
    await r.close();
  });

  it('a star becomes github_star only on a door connected with stars, and does not make the person engaged', async () => {
    const ws = await t.workspace();
    const plain = await connectDoor(t, ws, { kind: 'hosting', secret: SECRET });
    const starred = await connectDoor(t, ws, { kind: 'hosting', secret: SECRET, stars: true });
    const star = delivery('star', githubStar({ login: 'Codertocat', id: 21031067 }));
    expect((await postRaw(t, plain.path, star.raw, star.headers)).body).toEqual({ ok: true, status: 'ignored' });
    expect((await footprint(t, ws)).events).toBe(0);
    expect((await postRaw(t, starred.path, star.raw, star.headers)).body).toEqual({ ok: true, status: 'recorded' });
    const [row] = await t.db.query(
      `SELECT p.engaged_at, e.type, e.properties FROM events e JOIN people p ON p.workspace_id = e.workspace_id AND p.id = e.person_id WHERE e.workspace_id = $1`,
      [ws.workspace.id],
    );
    expect(row).toMatchObject({
      engaged_at: null,
      type: 'github_star',
      properties: { login: 'Codertocat', repository: 'Codertocat/Hello-World' },
    });
  });

  it('wrong secret, altered body, unknown token, oversized body, unmapped event and a redelivered X-GitHub-Delivery each change nothing', async () => {
    const ws = await t.workspace();
    const door = await connectDoor(t, ws, { kind: 'hosting', secret: SECRET });
    const payload = githubSponsorship('created', { login: 'hubot', id: 3 });
    const start = await footprint(t, ws, door.id);
    const wrong = delivery('sponsorship', payload, { secret: 'not it' });
    expect((await postRaw(t, door.path, wrong.raw, wrong.headers)).status).toBe(401);
    const good = delivery('sponsorship', payload);
    expect((await postRaw(t, door.path, alterOneByte(good.raw, '"login":"'), good.headers)).status).toBe(401);
    expect((await postRaw(t, door.path, good.raw, { 'x-github-event': 'sponsorship' })).status).toBe(401);
    expect(
      (await postRaw(t, door.path.replace(/[^/]+$/, 'Unknown0123456789abcdefghijklmno'), good.raw, good.headers))
        .status,
    ).toBe(404);
    const big = delivery('sponsorship', { ...payload, padding: 'x'.repeat(257 * 1024) });
    expect((await postRaw(t, door.path, big.raw, big.headers)).status).toBe(413);
    expect(await footprint(t, ws, door.id)).toEqual(start);

    const issues = delivery('issues', { action: 'opened', issue: { number: 1 }, sender: { login: 'hubot', id: 3 } });
    expect((await postRaw(t, door.path, issues.raw, issues.headers)).body).toEqual({ ok: true, status: 'ignored' });
    expect(await footprint(t, ws, door.id)).toEqual({ ...start, receipts: 1 });

    expect((await postRaw(t, door.path, good.raw, good.headers)).body).toEqual({ ok: true, status: 'recorded' });
    const recorded = await footprint(t, ws, door.id);
    // GitHub signs no time: a redelivery (days later, from its dashboard) is the same bytes and id.
    expect((await postRaw(t, door.path, good.raw, good.headers)).body).toEqual({ ok: true, status: 'recorded' });
    expect(await footprint(t, ws, door.id)).toEqual(recorded);
    const log = (await t.gql(DOORS, {}, ws.secretKey)).data.doors[0].receipts;
    expect(log.map((x: { eventId: string; type: string; answer: string }) => [x.eventId, x.type, x.answer])).toEqual([
      [good.id, 'sponsorship.created', 'recorded'],
      [issues.id, 'issues.opened', 'ignored'],
    ]);
  });
});
