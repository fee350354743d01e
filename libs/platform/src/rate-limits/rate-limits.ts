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
import { LimitPeaks } from './limit-peaks';
import {
  LIMITS,
  type LimitName,
  MAX_PER_TEN_MINUTES,
  WINDOW_SECONDS,
  type WorkspaceLimit,
  workspaceLimitOf,
} from './limit-settings';
import type { LimitStore } from './limit-store';

/** How often each process reports what it admitted locally. */
export const SYNC_MS = 200;
/** The part of a window's remaining allowance a process may admit without asking Redis. */
export const LOCAL_SHARE = 0.1;

interface Tally {
  name: LimitName;
  key: string;
  /** The workspace whose limit this is, when the door knows it: its override applies. */
  workspaceId: string | undefined;
  /** The calls a window allows, as last resolved: a new figure takes back the allowance in hand. */
  bound: number;
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
  private store: LimitStore | null = null;
  private readonly peaks = new LimitPeaks(() => this.store);

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** The workspaces lib gives the store of overrides and peaks at start-up (docs/operations.md#limits). */
  useStore(store: LimitStore): void {
    this.store = store;
  }

  /** The calls a window of this limit allows: the workspace's override, else the deployment's default. */
  private bound(name: LimitName, workspaceId: string | undefined): number | Promise<number> {
    const limit = workspaceLimitOf(name);
    if (!limit) return LIMITS[name];
    const fallback = this.config.limitDefaults?.[limit] ?? LIMITS[name];
    if (!workspaceId || !this.store) return fallback;
    const overrides = this.store.overridesOf(workspaceId);
    if (overrides instanceof Promise) return overrides.then((known) => known.get(limit) ?? fallback);
    return overrides.get(limit) ?? fallback;
  }

  private limiter(name: LimitName): RateLimiterRedis {
    let limiter = this.limiters.get(name);
    if (!limiter) {
      // The library never refuses by itself: consume compares the count with the workspace's figure.
      const points = MAX_PER_TEN_MINUTES;
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
   * then the post spends nothing, the `before` of its calls counted already (by its door) included. With the
   * workspace named, its override (or the deployment's default) is the limit, read again for every post.
   */
  async consume(name: LimitName, key: string, points = 1, before = 0, workspaceId?: string): Promise<void> {
    const id = `${name}:${key}`;
    const resolved = this.bound(name, workspaceId);
    const bound = typeof resolved === 'number' ? resolved : await resolved;
    let tally = this.tallies.get(id);
    if (tally && tally.bound !== bound) [tally.bound, tally.allowance] = [bound, 0]; // the next call asks Redis
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
    const fresh = tally ?? {
      name,
      key,
      workspaceId,
      bound,
      pending: 0,
      allowance: 0,
      resetAt: 0,
      left: bound,
      flight: null,
    };
    this.tallies.set(id, fresh);
    this.startReporting(); // also forgets tallies whose window has ended (one per visitor IP on public doors)
    const result = await this.report(fresh, points);
    if (result.consumedPoints > bound) await this.refuse(fresh, result, points + before);
  }

  /** Refuses a post over the window's figure; a post of several calls spends nothing (they are given back). */
  private async refuse(tally: Tally, result: RateLimiterRes, carried: number): Promise<never> {
    const bound = tally.bound;
    const retryAfter = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
    // RateLimit-Policy (the IETF draft's header): the figure that refused, per window of 600 seconds.
    const extra = { retryAfter, headers: { 'RateLimit-Policy': `${bound};w=${WINDOW_SECONDS}` } };
    const left = carried === 1 ? 0 : Math.max(0, bound - (result.consumedPoints - carried));
    this.notePeak(tally, bound - left, true);
    if (carried === 1) throw new Refusal('rate_limited', this.overSentence(tally.name, bound, retryAfter), extra);
    await this.giveBack(tally, carried);
    throw new Refusal(
      'rate_limited',
      `Over ${bound} calls in ten minutes: this post carries ${carried} and ${left} are left; send at most ` +
        `${left}, or wait ${retryAfter} seconds and send it again.`,
      extra,
    );
  }

  private overSentence(name: LimitName, bound: number, retryAfter: number): string {
    return (
      `Over ${bound} ${name === 'graphql' ? 'requests' : 'posts'} in ten minutes: wait ${retryAfter} ` +
      `seconds and send it again.`
    );
  }

  /** What the owners' view of limits counts: how much of its window a key had spent. */
  private notePeak(tally: Tally, used: number, refused: boolean): void {
    const limit: WorkspaceLimit | undefined = workspaceLimitOf(tally.name);
    if (!limit || !tally.workspaceId || !this.store) return;
    const { workspaceId, key, resetAt, bound } = tally;
    this.peaks.note({ workspaceId, limit, key, resetAt, used, bound, refused });
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
    const left = tally.bound - result.consumedPoints;
    // Calls admitted while this was on its way (pending again) spend the new allowance already.
    tally.allowance = left > 0 ? Math.max(0, Math.floor(left * LOCAL_SHARE) - tally.pending) : 0;
    tally.left = left;
    tally.resetAt = Date.now() + result.msBeforeNext;
    if (left >= 0) this.notePeak(tally, result.consumedPoints, false);
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
    await this.peaks.stop();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
