// interface.md "Limits": ten-minute windows; over the limit is 429 rate_limited with Retry-After and
// nothing written. Counted in Redis; while Redis is down an in-process limiter stands in, so posts
// are still accepted (and still limited per process) rather than lost.
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../config/config.token';
import { Refusal } from '../errors/refusal';
import { REDIS } from '../redis/redis';

export const WINDOW_SECONDS = 600;

export const LIMITS = {
  server: 600,
  mcp: 600,
  automation: 600,
  // Beyond the spec: GraphQL reads and writes per secret key (docs/security.md "GraphQL").
  graphql: 1200,
  'public:subscribe': 20,
  'public:identify': 60,
  'public:event': 240,
  'public:support': 10,
} as const;

export type LimitName = keyof typeof LIMITS;

@Injectable()
export class RateLimits implements OnApplicationShutdown {
  private readonly limiters = new Map<LimitName, RateLimiterRedis>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
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

  /** Counts one call for key; refuses with rate_limited once the window's allowance is spent. */
  async consume(name: LimitName, key: string): Promise<void> {
    try {
      await this.limiter(name).consume(key, 1);
    } catch (result) {
      if (result instanceof RateLimiterRes) {
        const retryAfter = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
        throw new Refusal('rate_limited', `Over ${LIMITS[name]} ${name === 'graphql' ? 'requests' : 'posts'} in ten minutes: wait ${retryAfter} seconds and send it again.`, {
          retryAfter,
        });
      }
      throw result;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
