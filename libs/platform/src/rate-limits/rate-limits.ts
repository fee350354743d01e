// Ten-minute windows (each route's limit in docs/rest.md); over the limit is 429 rate_limited with Retry-After and
// nothing written. Counted in Redis; while Redis is down an in-process limiter stands in, so posts
// are still accepted (and still limited per process) rather than lost.
//
// Not a Redis call per post. Each process admits calls from a local allowance, a tenth of
// what the window had left when it last asked Redis, reports what it admitted every SYNC_MS, and asks
// Redis again (with the call in hand) once the allowance is spent. Near the limit the allowance is 0,
// so every call asks. One process is exact; P processes can together overshoot a window by at most
// what each had in hand: P tenths of the limit (docs/decisions.md#rate-limits-counted-in-process).
// Calls that find no allowance while an answer that may bring one is on its way (a key's
// first, one just spent) wait for it rather than each asking Redis; calls keep spending the allowance
// while a report is on its way, and the answer's allowance leaves out what they spent.
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../config/config.token';
import { Refusal } from '../errors/refusal';
import { REDIS, type RedisClient } from '../redis/redis';

export const WINDOW_SECONDS = 600;

export const LIMITS = {
  server: 600,
  mcp: 600,
  automation: 600,
  // Beyond the spec: GraphQL reads and writes per secret key
  // (docs/security.md#graphql-no-caller-can-stall-the-service).
  graphql: 1200,
  // Beyond the spec: sign-in attempts per client IP, and email links asked for per address.
  'sign-in:ip': 30,
  'sign-in:email': 5,
  'public:subscribe': 20,
  'public:identify': 60,
  'public:event': 240,
  'public:support': 10,
} as const;

export type LimitName = keyof typeof LIMITS;

/** How often each process reports what it admitted locally. */
export const SYNC_MS = 200;
/** The part of a window's remaining allowance a process may admit without asking Redis. */
export const LOCAL_SHARE = 0.1;

interface Tally {
  name: LimitName;
  key: string;
  /** Admitted here, not yet reported to Redis. */
  pending: number;
  /** Calls this process may still admit before asking Redis. */
  allowance: number;
  /** When the window Redis counted ends (ms since epoch). */
  resetAt: number;
  /** What the window had left at Redis's last answer. */
  left: number;
  /** The last report sent, until answered: calls with no allowance wait for it when it may bring one. */
  flight: Promise<unknown> | null;
}

@Injectable()
export class RateLimits implements OnApplicationShutdown {
  private readonly limiters = new Map<LimitName, RateLimiterRedis>();
  private readonly tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private limiter(name: LimitName): RateLimiterRedis {
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const points = LIMITS[name];
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: `${this.config.redisPrefix}:rl:${name}`,
        insuranceLimiter: new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: `mem:${name}` }),
      });
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  /**
   * Counts one call for key (or `points` calls at once: a batch's items); refuses with rate_limited once the window's
   * allowance is spent. Calls counted at once are refused together when they are more than the window has left, and
   * then the post spends nothing, the `before` of its calls counted already (by its door) included.
   */
  async consume(name: LimitName, key: string, points = 1, before = 0): Promise<void> {
    const id = `${name}:${key}`;
    let tally = this.tallies.get(id);
    for (;;) {
      const live = tally !== undefined && Date.now() < tally.resetAt;
      if (tally && live && tally.allowance >= points) {
        tally.allowance -= points;
        tally.pending += points;
        this.startReporting();
        return;
      }
      // An answer on its way may bring an allowance (the key's first, or a window that had a tenth to give): wait for
      // it.
      if (!tally?.flight || !(tally.resetAt === 0 || (live && tally.left * LOCAL_SHARE >= 1))) break;
      await tally.flight.catch(() => undefined);
      tally = this.tallies.get(id);
    }
    const fresh = tally ?? { name, key, pending: 0, allowance: 0, resetAt: 0, left: LIMITS[name], flight: null };
    this.tallies.set(id, fresh);
    this.startReporting(); // also forgets tallies whose window has ended (one per visitor IP on public doors)
    const result = await this.report(fresh, points);
    if (result.consumedPoints > LIMITS[name]) {
      const retryAfter = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
      if (points + before === 1) throw new Refusal('rate_limited', this.overSentence(name, retryAfter), { retryAfter });
      const carried = points + before;
      await this.giveBack(fresh, carried);
      const left = Math.max(0, LIMITS[name] - (result.consumedPoints - carried));
      throw new Refusal(
        'rate_limited',
        `Over ${LIMITS[name]} calls in ten minutes: this post carries ${carried} and ${left} are left; send at most ` +
          `${left}, or wait ${retryAfter} seconds and send it again.`,
        { retryAfter },
      );
    }
  }

  private overSentence(name: LimitName, retryAfter: number): string {
    return (
      `Over ${LIMITS[name]} ${name === 'graphql' ? 'requests' : 'posts'} in ten minutes: wait ${retryAfter} ` +
      `seconds and send it again.`
    );
  }

  /** A post refused for its calls spends nothing: Redis counted them, so they are taken back. */
  private async giveBack(tally: Tally, points: number): Promise<void> {
    await this.limiter(tally.name)
      .reward(tally.key, points)
      .catch(() => undefined);
    tally.left += points;
  }

  /** Counts this process's pending calls (and `more` in hand) in Redis, and sets the next local allowance. */
  private async report(tally: Tally, more: number): Promise<RateLimiterRes> {
    const points = tally.pending + more;
    tally.pending = 0;
    const asked = this.limiter(tally.name)
      .consume(tally.key, points)
      .catch((refused: unknown) => {
        if (!(refused instanceof RateLimiterRes)) throw refused;
        return refused;
      });
    tally.flight = asked;
    let result: RateLimiterRes;
    try {
      result = await asked;
    } finally {
      if (tally.flight === asked) tally.flight = null;
    }
    const left = LIMITS[tally.name] - result.consumedPoints;
    // Calls admitted while this was on its way (pending again) spend the new allowance already.
    tally.allowance = left > 0 ? Math.max(0, Math.floor(left * LOCAL_SHARE) - tally.pending) : 0;
    tally.left = left;
    tally.resetAt = Date.now() + result.msBeforeNext;
    return result;
  }

  private startReporting(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.reportAll(), SYNC_MS);
    this.timer.unref();
  }

  /** Reports every tally with calls pending; forgets tallies whose window has ended. */
  private async reportAll(): Promise<void> {
    const now = Date.now();
    const waiting: Array<Promise<unknown>> = [];
    for (const [id, tally] of this.tallies) {
      if (tally.pending > 0) waiting.push(this.report(tally, 0).catch(() => undefined));
      else if (now >= tally.resetAt) this.tallies.delete(id);
    }
    await Promise.all(waiting);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.reportAll();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
