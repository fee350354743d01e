// docs/security.md#the-public-key-writes-only-what-the-tag-posts, generated: whatever a stranger holding the
// public key posts (any spelling of a server's event, any door, any Origin, any batch), no server's event is
// recorded, and one visitor's calls never pass the website's allowance however they are cut into posts.
// Seeded like test/fuzz.e2e-spec.ts: FUZZ_SEED replays a failure, FUZZ_RUNS sets the cases.
import fc from 'fast-check';
import type Redis from 'ioredis';
import { BUILT_IN_EVENTS, SEGMENT_SPEC_EVENTS, TAG_EVENTS } from '@app/events';
import { LIMITS, REDIS } from '@app/platform';
import { useApp, useWorkspace } from './harness';
import { postSegment } from './support/segment';

const SEED = Number(process.env.FUZZ_SEED ?? 1717);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SITE = 'https://shop.example.com';
const ALLOWANCE = LIMITS['public:event'];

const t = useApp();
const ws = useWorkspace(t, { origins: [SITE] }, 'all');
let redis: Redis;

beforeAll(() => {
  redis = t.app.get(REDIS);
});

async function resetRateLimits(): Promise<void> {
  const keys = await redis.keys(`${t.config.redisPrefix}:rl:*`);
  if (keys.length > 0) await redis.del(...keys);
}

const count = async (where = 'TRUE') =>
  Number(
    (await t.db.query(`SELECT count(*) AS n FROM events WHERE workspace_id = $1 AND ${where}`, [ws.workspace.id]))[0].n,
  );

// ---- a server's event, in every spelling a Segment client or a hand-written post might use -------------------

const SERVER_NAMES = BUILT_IN_EVENTS.filter((name) => !TAG_EVENTS.includes(name));
const SPEC_SPELLINGS = Object.entries(SEGMENT_SPEC_EVENTS)
  .filter(([, event]) => SERVER_NAMES.includes(event))
  .map(([spelling]) => spelling);
const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const serverSpelling = fc.oneof(
  fc.constantFrom(...SERVER_NAMES),
  fc.constantFrom(...SPEC_SPELLINGS),
  fc.constantFrom(...SERVER_NAMES.map(camel)),
  fc.constantFrom(...SERVER_NAMES.map((name) => name.toUpperCase())),
);
const origin = fc.constantFrom<string | undefined>(SITE, undefined, 'https://elsewhere.example', 'null');
const email = fc.constantFrom('stranger@example.com', 'owner@shop.example.com', 'x@y.co');
const value = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ noNaN: true }), fc.constant(null));

type Forgery =
  | { door: 'website'; name: string; email: string; value: number | null; origin?: string }
  | { door: 'track'; name: string; email: string; value: number | null; origin?: string }
  | { door: 'batch'; names: string[]; pages: number; email: string; origin?: string };

const forgery: fc.Arbitrary<Forgery> = fc.oneof(
  fc.record({ door: fc.constant('website' as const), name: serverSpelling, email, value, origin }),
  fc.record({ door: fc.constant('track' as const), name: serverSpelling, email, value, origin }),
  fc.record({
    door: fc.constant('batch' as const),
    names: fc.array(serverSpelling, { minLength: 1, maxLength: 8 }),
    pages: fc.integer({ min: 0, max: 3 }),
    email,
    origin,
  }),
);

async function forge(f: Forgery): Promise<{ status: number; refusals: string[] }> {
  const headers = f.origin ? { origin: f.origin } : undefined;
  if (f.door === 'website') {
    const answer = await t.request('POST', `/api/in/${ws.publicKey}/event`, {
      body: { type: f.name, email: f.email, value: f.value },
      headers: headers ?? {},
    });
    return { status: answer.status, refusals: answer.status >= 400 ? [answer.body.error] : [] };
  }
  if (f.door === 'track') {
    const call = { anonymousId: 'v-forger', event: f.name, traits: { email: f.email }, properties: { value: f.value } };
    const answer = await postSegment(t.url, '/v1/track', call, { key: ws.publicKey, headers });
    return { status: answer.status, refusals: answer.status >= 400 ? [answer.body.error] : [] };
  }
  const batch = [
    ...f.names.map((event) => ({ type: 'track', anonymousId: 'v-forger', event, traits: { email: f.email } })),
    ...Array.from({ length: f.pages }, () => ({ type: 'page', anonymousId: 'v-forger', name: 'Pricing' })),
  ];
  const answer = await postSegment(t.url, '/v1/batch', { batch }, { key: ws.publicKey, headers });
  if (answer.status >= 400) return { status: answer.status, refusals: [answer.body.error] };
  const results: { error?: string }[] = answer.body.results;
  return { status: answer.status, refusals: results.slice(0, f.names.length).map((r) => r.error ?? 'recorded') };
}

describe('fuzz: the public key writes only what the tag posts', () => {
  it(`${RUNS} forged server events through every public door: none recorded, each refused`, async () => {
    const refusals = new Map<string, number>();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(forgery, async (f) => {
        if (run++ % 20 === 0) await resetRateLimits();
        const { status, refusals: said } = await forge(f);
        expect(status).toBeLessThan(500);
        for (const code of said) refusals.set(code, (refusals.get(code) ?? 0) + 1);
        // A refusal may be the Origin's or the allowance's; what it never is, is a recorded server event.
        expect(said).not.toContain('recorded');
        const tagNames = TAG_EVENTS.map((name) => `'${name}'`).join(', ');
        expect(await count(`type NOT IN (${tagNames})`)).toBe(0);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The run reached the catalogue's refusal, not only the Origin's.
    expect(refusals.get('unknown_event') ?? 0).toBeGreaterThan(RUNS / 4);
    console.log(`public-key forgeries: ${[...refusals].map(([code, n]) => `${code} x${n}`).join(', ')}`);
  }, 600_000);
});

// ---- one visitor's allowance, cut into posts any way -------------------------------------------------------

type Post = { door: 'batch'; calls: number } | { door: 'page' } | { door: 'website' };
const post: fc.Arbitrary<Post> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ door: fc.constant('batch' as const), calls: fc.integer({ min: 1, max: 100 }) }) },
  { weight: 1, arbitrary: fc.record({ door: fc.constant('page' as const) }) },
  { weight: 1, arbitrary: fc.record({ door: fc.constant('website' as const) }) },
);
const callsOf = (p: Post) => (p.door === 'batch' ? p.calls : 1);

let visitorSerial = 0;
async function send(p: Post): Promise<number> {
  const anonymousId = () => `v-${visitorSerial++}`;
  if (p.door === 'website')
    return (
      await t.request('POST', `/api/in/${ws.publicKey}/event`, {
        body: { type: 'pageview', anon_id: anonymousId(), source: { path: '/pricing' } },
        headers: { origin: SITE },
      })
    ).status;
  if (p.door === 'page')
    return (await postSegment(t.url, '/v1/page', { anonymousId: anonymousId() }, { key: ws.publicKey })).status;
  const batch = Array.from({ length: p.calls }, () => ({ type: 'page', anonymousId: anonymousId() }));
  return (await postSegment(t.url, '/v1/batch', { batch }, { key: ws.publicKey })).status;
}

describe("fuzz: a visitor's calls spend one allowance however they are posted", () => {
  const runs = Math.max(5, Math.round(RUNS / 20));
  it(`${runs} sequences of batches, Segment pages and website events: taken while calls are left, else 429 writing nothing`, async () => {
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(post, { minLength: 3, maxLength: 12 }), async (posts) => {
        await resetRateLimits();
        let left = ALLOWANCE;
        const before = await count();
        for (const p of posts) {
          const status = await send(p);
          if (callsOf(p) <= left) {
            expect(status).toBe(200);
            left -= callsOf(p);
          } else {
            expect(status).toBe(429);
            refused++;
          }
          expect(await count()).toBe(before + ALLOWANCE - left);
        }
      }),
      { seed: SEED + 1, numRuns: runs, endOnFailure: true },
    );
    expect(refused).toBeGreaterThan(0);
  }, 600_000);
});
