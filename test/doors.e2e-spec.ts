// Third-party doors end to end, part one: connecting over GraphQL, the payment door (Stripe) and the
// auth_a door (Clerk), signed with the providers' own packages
// (docs/rest.md#third-party-doors). Part two (auth_b, hosting) is doors-tokens.e2e-spec.ts.
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { memberKey, useApp, useWorkspace } from './harness';
import {
  alterOneByte,
  connectDoor,
  eventTypes,
  CONNECT,
  DOORS,
  footprint,
  oversized,
  person,
  postRaw,
  webhooksFor,
  workspaceWithReceiver,
} from './support/doors';
import {
  clerkSessionCreated,
  clerkUserCreated,
  clerkUserDeleted,
  stripeCheckoutSession,
  stripeEvent,
  stripeSubscription,
} from './support/provider-events';

const t = useApp({ worker: true });

const STRIPE_SECRET = 'whsec_test_5b7c0d2e1f0a4b8c9d6e3f2a1b0c9d8e';
const stripeHeaders = (raw: string, secret = STRIPE_SECRET, timestamp = Math.floor(Date.now() / 1000)) => ({
  'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: raw, secret, timestamp }),
});

describe('connecting a door', () => {
  const ws = useWorkspace(t);

  it('answers the address once; doors lists the door without its secret or address; the secret is sealed and the token hashed', async () => {
    const door = await connectDoor(t, ws, { kind: 'payment', secret: STRIPE_SECRET });
    expect(door.address).toMatch(new RegExp(`^${t.url}/api/webhooks/payment/[A-Za-z0-9]{32}$`));
    const listed = await t.gql(DOORS, {}, ws.secretKey);
    expect(listed.data.doors).toEqual([
      { id: door.id, kind: 'payment', createdAt: expect.any(String), domain: null, stars: false, receipts: [] },
    ]);
    const token = door.path.split('/').pop()!;
    const [row] = await t.db.query(`SELECT secret_sealed, token_hash FROM door_connections WHERE id = $1`, [door.id]);
    expect(row.secret_sealed).toMatch(/^v1\./);
    expect(row.secret_sealed).not.toContain(STRIPE_SECRET);
    expect(row.token_hash).not.toContain(token);
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it('members are refused changes with forbidden (they read the doors); a bad input with invalid_field naming the fix', async () => {
    const member = (await memberKey(t, ws, 'dev@example.com')).secretKey;
    expect(
      (await t.gql(CONNECT, { input: { kind: 'payment', secret: STRIPE_SECRET } }, member)).errors![0].extensions.code,
    ).toBe('forbidden');
    expect((await t.gql(DOORS, {}, member)).data.doors).toEqual([]);
    const bad = await t.gql(
      CONNECT,
      { input: { kind: 'payment', secret: 'sk_live_not_a_signing_secret' } },
      ws.secretKey,
    );
    expect(bad.errors![0].extensions.code).toBe('invalid_field');
    expect(bad.errors![0].message).toMatch(/whsec_/);
    expect((await t.gql(DOORS, {}, ws.secretKey)).data.doors).toEqual([]);
  });

  it('disconnectDoor makes the address answer 404; a second time is not_found', async () => {
    const door = await connectDoor(t, ws, { kind: 'payment', secret: STRIPE_SECRET });
    const raw = JSON.stringify(stripeEvent('checkout.session.completed', stripeCheckoutSession({})));
    const mutation = 'mutation($id: ID!) { disconnectDoor(id: $id) }';
    expect((await t.gql(mutation, { id: door.id }, ws.secretKey)).data.disconnectDoor).toBe(true);
    const after = await postRaw(t, door.path, raw, stripeHeaders(raw));
    expect(after.status).toBe(404);
    expect(after.body.error).toBe('not_found');
    expect((await t.gql(mutation, { id: door.id }, ws.secretKey)).errors![0].extensions.code).toBe('not_found');
  });

  it('a door of another workspace is neither listed nor disconnected', async () => {
    const other = await t.workspace();
    const door = await connectDoor(t, other, { kind: 'payment', secret: STRIPE_SECRET });
    expect((await t.gql(DOORS, {}, ws.secretKey)).data.doors).toEqual([]);
    expect(
      (await t.gql('mutation($id: ID!) { disconnectDoor(id: $id) }', { id: door.id }, ws.secretKey)).errors![0]
        .extensions.code,
    ).toBe('not_found');
  });
});

describe('payment (Stripe)', () => {
  it('a paid checkout makes a Purchaser named by email and cus_ id, value in whole units, and fires the same webhooks as a server post; a later subscription event by cus_ alone finds them', async () => {
    const { ws, r } = await workspaceWithReceiver(t);
    const door = await connectDoor(t, ws, { kind: 'payment', secret: STRIPE_SECRET });
    const checkout = stripeEvent(
      'checkout.session.completed',
      stripeCheckoutSession({ email: 'jenny.rosen@example.com', customer: 'cus_NffrFeUfNV2Hib', amount: 4999 }),
    );
    const raw = JSON.stringify(checkout, null, 2);
    const answer = await postRaw(t, door.path, raw, stripeHeaders(raw));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, status: 'recorded' });

    const hooks = await webhooksFor(r.received, 'purchase', 'purchaser');
    expect(hooks.event.data).toMatchObject({ event: 'purchase', value: 49.99 });
    expect(hooks.event.record).toMatchObject({ email: 'jenny.rosen@example.com', stage: 'purchaser' });
    expect(hooks.stage!.data).toEqual({ stage: 'purchaser', from: null, object: 'person' });

    const sub = stripeEvent(
      'customer.subscription.created',
      stripeSubscription({ customer: 'cus_NffrFeUfNV2Hib', status: 'active' }),
    );
    const subRaw = JSON.stringify(sub);
    expect((await postRaw(t, door.path, subRaw, stripeHeaders(subRaw))).body).toEqual({ ok: true, status: 'recorded' });
    const p = await person(t, ws, 'jenny.rosen@example.com');
    expect(p).toMatchObject({ stage: 'purchaser', engaged: true, purchases: 1 });
    expect(p.identities).toEqual(
      expect.arrayContaining([
        { kind: 'email', value: 'jenny.rosen@example.com' },
        { kind: 'account_id', value: 'cus_NffrFeUfNV2Hib' },
      ]),
    );
    expect(eventTypes(p)).toEqual(['subscription_started', 'purchase']);
    expect(p.timeline.find((e: { type: string }) => e.type === 'purchase')).toMatchObject({
      value: 49.99,
      occurredAt: new Date(checkout.created * 1000).toISOString(),
    });
    expect((await footprint(t, ws)).people).toBe(1);

    const log = (await t.gql(DOORS, {}, ws.secretKey)).data.doors[0].receipts;
    expect(log).toEqual([
      {
        at: expect.any(String),
        eventId: sub.id,
        type: 'customer.subscription.created',
        answer: 'recorded',
        httpStatus: 200,
      },
      {
        at: expect.any(String),
        eventId: checkout.id,
        type: 'checkout.session.completed',
        answer: 'recorded',
        httpStatus: 200,
      },
    ]);
    await r.close();
  });

  it('a trialing subscription starts a trial when the workspace has a Trial stage', async () => {
    const ws = await t.workspace();
    await t.gql('mutation { updateWorkspaceSettings(input: {trialStage: true}) { slug } }', {}, ws.secretKey);
    const door = await connectDoor(t, ws, { kind: 'payment', secret: STRIPE_SECRET });
    const checkout = JSON.stringify(
      stripeEvent(
        'checkout.session.expired',
        stripeCheckoutSession({ email: 'trial@example.com', customer: 'cus_T', paid: false }),
      ),
    );
    await postRaw(t, door.path, checkout, stripeHeaders(checkout));
    const raw = JSON.stringify(
      stripeEvent('customer.subscription.created', stripeSubscription({ customer: 'cus_T', status: 'trialing' })),
    );
    expect((await postRaw(t, door.path, raw, stripeHeaders(raw))).body.status).toBe('recorded');
    const p = await person(t, ws, 'trial@example.com');
    expect(eventTypes(p)).toEqual(['trial_started', 'checkout_abandoned']);
    expect(p.stage).toBe('trial');
  });

  describe('posts that change nothing', () => {
    const ws = useWorkspace(t, {}, 'all');
    let door: Awaited<ReturnType<typeof connectDoor>>;
    let raw: string;
    beforeAll(async () => {
      door = await connectDoor(t, ws, { kind: 'payment', secret: STRIPE_SECRET });
      raw = JSON.stringify(
        stripeEvent(
          'checkout.session.completed',
          stripeCheckoutSession({ email: 'nobody@example.com', customer: 'cus_Z' }),
        ),
      );
    });
    const refused = async (answer: { status: number; body: any }, status: number, code: string) => {
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ ok: false, error: code, message: expect.any(String) });
    };

    it('wrong secret, stale timestamp, missing header and a body altered by one byte after signing: 401, nothing written', async () => {
      const before = await footprint(t, ws, door.id);
      await refused(
        await postRaw(t, door.path, raw, stripeHeaders(raw, 'whsec_another_secret')),
        401,
        'invalid_signature',
      );
      await refused(
        await postRaw(t, door.path, raw, stripeHeaders(raw, STRIPE_SECRET, Math.floor(Date.now() / 1000) - 301)),
        401,
        'invalid_signature',
      );
      await refused(await postRaw(t, door.path, raw, {}), 401, 'invalid_signature');
      await refused(
        await postRaw(t, door.path, alterOneByte(raw, '"email":"'), stripeHeaders(raw)),
        401,
        'invalid_signature',
      );
      expect(await footprint(t, ws, door.id)).toEqual(before);
    });

    it('an unknown token, or the token under another kind: 404 not_found', async () => {
      const before = await footprint(t, ws, door.id);
      await refused(
        await postRaw(t, '/api/webhooks/payment/NotAToken0123456789abcdefghijklm', raw, stripeHeaders(raw)),
        404,
        'not_found',
      );
      await refused(
        await postRaw(t, door.path.replace('/payment/', '/hosting/'), raw, stripeHeaders(raw)),
        404,
        'not_found',
      );
      expect(await footprint(t, ws, door.id)).toEqual(before);
    });

    it('a body over 256 KB: 413 too_large', async () => {
      const before = await footprint(t, ws, door.id);
      const big = oversized(JSON.parse(raw));
      await refused(await postRaw(t, door.path, big, stripeHeaders(big)), 413, 'too_large');
      expect(await footprint(t, ws, door.id)).toEqual(before);
    });

    it('an event type the door does not map: 200 ignored, no person, no event', async () => {
      const before = await footprint(t, ws, door.id);
      const other = JSON.stringify(
        stripeEvent('payment_intent.succeeded', {
          id: 'pi_1',
          object: 'payment_intent',
          amount: 2000,
          customer: 'cus_Z',
          receipt_email: 'nobody@example.com',
        }),
      );
      expect((await postRaw(t, door.path, other, stripeHeaders(other))).body).toEqual({ ok: true, status: 'ignored' });
      expect(await footprint(t, ws, door.id)).toEqual({ ...before, receipts: before.receipts + 1 });
    });

    it('the sweep forgets receipts after 30 days, as long as idempotency keys are kept', async () => {
      const fresh = JSON.stringify(
        stripeEvent('customer.created', { id: 'cus_S', object: 'customer', email: 'swept@example.com' }),
      );
      const old = JSON.stringify(
        stripeEvent('customer.updated', { id: 'cus_S', object: 'customer', email: 'swept@example.com' }),
      );
      await postRaw(t, door.path, fresh, stripeHeaders(fresh));
      await postRaw(t, door.path, old, stripeHeaders(old));
      await t.make.age('door_receipts', 'received_at', '31 days', { webhook_id: JSON.parse(old).id });
      const { SweepRegistry } = await import('@app/platform');
      await t.worker!.get(SweepRegistry).runAll();
      const left = await t.db.query(`SELECT webhook_id FROM door_receipts WHERE webhook_id = ANY($1::text[])`, [
        [JSON.parse(fresh).id, JSON.parse(old).id],
      ]);
      expect(left).toEqual([{ webhook_id: JSON.parse(fresh).id }]);
    });

    it('a redelivery of the same event id, newly signed, answers the same and writes nothing', async () => {
      expect((await postRaw(t, door.path, raw, stripeHeaders(raw))).body).toEqual({ ok: true, status: 'recorded' });
      const before = await footprint(t, ws, door.id);
      const again = await postRaw(
        t,
        door.path,
        raw,
        stripeHeaders(raw, STRIPE_SECRET, Math.floor(Date.now() / 1000) - 5),
      );
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ok: true, status: 'recorded' });
      expect(await footprint(t, ws, door.id)).toEqual(before);
    });
  });
});

describe('auth_a (Clerk, Standard Webhooks)', () => {
  const CLERK_SECRET = `whsec_${Buffer.from('clerk-test-signing-secret-32-byte').toString('base64')}`;
  let n = 0;
  const signed = (
    payload: unknown,
    o: { secret?: string; at?: Date; id?: string; prefix?: 'svix' | 'webhook' } = {},
  ) => {
    const raw = JSON.stringify(payload);
    const id = o.id ?? `msg_2ZXkq${Date.now()}${n++}`;
    const at = o.at ?? new Date();
    const p = o.prefix ?? 'svix';
    return {
      raw,
      id,
      headers: {
        [`${p}-id`]: id,
        [`${p}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
        [`${p}-signature`]: new Webhook(o.secret ?? CLERK_SECRET).sign(id, at, raw),
      },
    };
  };

  it('user.created -> signup with name and email (Account, engaged); session.created and user.deleted find the person by the user_ id; nothing is deleted', async () => {
    const { ws, r } = await workspaceWithReceiver(t);
    const door = await connectDoor(t, ws, { kind: 'auth_a', secret: CLERK_SECRET });
    const created = signed(
      clerkUserCreated({
        id: 'user_29w83sxmDNGwOuEthce5gg56FcC',
        email: 'example@example.org',
        first: 'Example',
        last: 'User',
      }),
    );
    expect((await postRaw(t, door.path, created.raw, created.headers)).body).toEqual({ ok: true, status: 'recorded' });
    const hooks = await webhooksFor(r.received, 'signup', 'account');
    expect(hooks.event.record).toMatchObject({ email: 'example@example.org', name: 'Example User', stage: 'account' });

    const session = signed(clerkSessionCreated('user_29w83sxmDNGwOuEthce5gg56FcC'), { prefix: 'webhook' });
    expect((await postRaw(t, door.path, session.raw, session.headers)).body.status).toBe('recorded');
    const deleted = signed(clerkUserDeleted('user_29w83sxmDNGwOuEthce5gg56FcC'));
    expect((await postRaw(t, door.path, deleted.raw, deleted.headers)).body.status).toBe('recorded');
    await webhooksFor(r.received, 'account_deleted');

    const p = await person(t, ws, 'example@example.org');
    expect(p).toMatchObject({ name: 'Example User', stage: 'account', engaged: true });
    expect(eventTypes(p)).toEqual(['account_deleted', 'sign_in', 'signup']);
    expect((await footprint(t, ws)).people).toBe(1);
    await r.close();
  });

  it('wrong secret, stale timestamp, altered body, unknown token, oversized body, unmapped type, data the events endpoint refuses, and a replayed svix-id each change nothing', async () => {
    const ws = await t.workspace();
    const door = await connectDoor(t, ws, { kind: 'auth_a', secret: CLERK_SECRET });
    const payload = clerkUserCreated({ email: 'quiet@example.org' });
    const start = await footprint(t, ws, door.id);
    const other = `whsec_${Buffer.from('another-clerk-secret-of-32-bytes!').toString('base64')}`;
    const bad = [signed(payload, { secret: other }), signed(payload, { at: new Date(Date.now() - 6 * 60_000) })];
    for (const s of bad) expect((await postRaw(t, door.path, s.raw, s.headers)).status).toBe(401);
    const good = signed(payload);
    expect((await postRaw(t, door.path, alterOneByte(good.raw, '"email_address":"'), good.headers)).status).toBe(401);
    expect(
      (await postRaw(t, door.path.replace(/[^/]+$/, 'Unknown0123456789abcdefghijklmno'), good.raw, good.headers))
        .status,
    ).toBe(404);
    const big = signed({ ...payload, padding: 'x'.repeat(257 * 1024) });
    expect((await postRaw(t, door.path, big.raw, big.headers)).status).toBe(413);
    expect(await footprint(t, ws, door.id)).toEqual(start);

    const unmapped = signed({ ...payload, type: 'user.updated' });
    expect((await postRaw(t, door.path, unmapped.raw, unmapped.headers)).body).toEqual({ ok: true, status: 'ignored' });
    expect(await footprint(t, ws, door.id)).toEqual({ ...start, receipts: 1 });

    const invalid = signed(clerkUserCreated({ email: 'not-an-address' }));
    const refusedByIngest = await postRaw(t, door.path, invalid.raw, invalid.headers);
    expect(refusedByIngest.status).toBe(400);
    expect(refusedByIngest.body.error).toBe('invalid_email');
    expect(await footprint(t, ws, door.id)).toEqual({ ...start, receipts: 2 });
    const log = (await t.gql(DOORS, {}, ws.secretKey)).data.doors[0].receipts;
    expect(
      log.map((x: { eventId: string; type: string; answer: string; httpStatus: number }) => [
        x.eventId,
        x.type,
        x.answer,
        x.httpStatus,
      ]),
    ).toEqual([
      [invalid.id, 'user.created', 'invalid_email', 400],
      [unmapped.id, 'user.updated', 'ignored', 200],
    ]);

    expect((await postRaw(t, door.path, good.raw, good.headers)).body).toEqual({ ok: true, status: 'recorded' });
    const recorded = await footprint(t, ws, door.id);
    const replay = signed(payload, { id: good.id });
    expect((await postRaw(t, door.path, replay.raw, replay.headers)).body).toEqual({ ok: true, status: 'recorded' });
    expect(await footprint(t, ws, door.id)).toEqual(recorded);
  });
});
