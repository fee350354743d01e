// Single-event posts at a steady rate beside other work (bench:broadcasts, bench:export): rounds of autocannon on
// 16 connections, each key taking POSTS_PER_KEY posts before the next, so no key meets its rate limit.
import autocannon from 'autocannon';

export const POSTS_PER_KEY = 500;

export interface PostTarget {
  url: string;
  keys: string[];
  /** Posts sent so far: the next post's number. */
  posts: number;
}

export interface PostRound {
  p50: number;
  p99: number;
  ok: number;
  other: number;
}

/** One round of pageviews at `rate` posts/s for `seconds`, post n naming the person `email(n)`. */
export async function postRound(
  target: PostTarget,
  { rate, seconds, email }: { rate: number; seconds: number; email: (n: number) => string },
): Promise<PostRound> {
  const result = await autocannon({
    url: `${target.url}/api/v1/events`,
    connections: 16,
    overallRate: rate,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const n = target.posts++;
          const key = target.keys[Math.floor(n / POSTS_PER_KEY) % target.keys.length];
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({ type: 'pageview', email: email(n), properties: { n } }),
          };
        },
      },
    ],
  });
  return { p50: result.latency.p50, p99: result.latency.p99, ok: result['2xx'], other: result.non2xx + result.errors };
}
