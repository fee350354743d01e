// docs/security.md#render-isolation-one-workspace-cannot-stall-the-others: one workspace's worst template
// costs the others nothing they can feel. Templates are parsed and rendered in render threads, in turns by
// workspace; the api's event-loop delay is at /metrics. The tight figures are bench/isolation.ts's.
import { ADMIN_TOKEN, TestApp, useApp } from './harness';

/** The worst template: about a second of Liquid, then refused as too long once filled in. */
const LOOP = '{% for i in (1..100000) %}{{i}}{% endfor %}';
const LANES = 8;
const REFUSED_AS_BEFORE =
  /^(missing_body: .* once filled in for this person: check the template and the person's fields\.|invalid_field: Fix the Liquid in the body \(template render limit exceeded, line:1, col:1\), then send it again\.)$/;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function engaged(t: TestApp, key: string, email: string): Promise<void> {
  const answer = await t.request('POST', '/api/v1/events', { key, body: { type: 'signup', email } });
  expect(answer.status).toBe(200);
}

describe('one workspace posting the 100,000-step loop 8 at a time', () => {
  const t = useApp();

  it("another workspace's event posts and /health are answered well within a second, and the loop is still refused as before", async () => {
    const [noisy, quiet] = [await t.workspace(), await t.workspace()];
    await engaged(t, noisy.secretKey, 'ada@example.com');
    await engaged(t, quiet.secretKey, 'bob@example.com');
    let stop = false;
    const loopAnswers: Array<{ status: number; error: string; message: string }> = [];
    let firstAnswer!: () => void;
    const started = new Promise<void>((resolve) => (firstAnswer = resolve));
    const lane = async () => {
      while (!stop) {
        const answer = await t.request('POST', '/api/v1/messages', {
          key: noisy.secretKey,
          body: { to: 'ada@example.com', subject: 'Count', body: LOOP },
        });
        loopAnswers.push({ status: answer.status, error: answer.body.error, message: answer.body.message });
        firstAnswer();
      }
    };
    const lanes = Array.from({ length: LANES }, lane);
    await started; // the render threads are up and busy with the loop
    const posts: number[] = [];
    const health: number[] = [];
    const until = Date.now() + 3_000;
    // At least 3 s, at least 21 of each, and until the loop has been answered LANES + 2 times (a loaded
    // machine takes longer over them, not fewer: its renders run longer before they are refused).
    for (let n = 0; Date.now() < until || posts.length <= 20 || loopAnswers.length < LANES + 2; n++) {
      const post = await timed(() =>
        t.request('POST', '/api/v1/events', {
          key: quiet.secretKey,
          body: { type: 'pageview', email: 'bob@example.com', properties: { n } },
        }),
      );
      expect(post.value.status).toBe(200);
      posts.push(post.ms);
      const check = await timed(() => t.request('GET', '/health'));
      expect(check.value.status).toBe(200);
      health.push(check.ms);
      await sleep(20);
    }
    stop = true;
    await Promise.all(lanes);

    expect(Math.max(...posts)).toBeLessThan(1_000);
    expect(Math.max(...health)).toBeLessThan(1_000);
    // The loop kept the render threads busy the whole time, and is refused as it was on the event loop:
    // too long once filled in, or past Liquid's render limit when the machine is slow.
    expect(loopAnswers.length).toBeGreaterThanOrEqual(LANES + 2);
    for (const answer of loopAnswers) expect(answer).toEqual(expect.objectContaining({ status: 400 }));
    for (const { error, message } of loopAnswers) expect(`${error}: ${message}`).toMatch(REFUSED_AS_BEFORE);
  }, 60_000);

  it("a message of the quiet workspace waits for one turn at most, not for the noisy one's queue", async () => {
    const [noisy, quiet] = [await t.workspace(), await t.workspace()];
    await engaged(t, noisy.secretKey, 'ada@example.com');
    await engaged(t, quiet.secretKey, 'bob@example.com');
    const loops = Array.from({ length: 4 }, () =>
      timed(() =>
        t.request('POST', '/api/v1/messages', {
          key: noisy.secretKey,
          body: { to: 'ada@example.com', subject: 'Count', body: LOOP },
        }),
      ),
    );
    await sleep(200); // the four are running or waiting
    const mine = await timed(() =>
      t.request('POST', '/api/v1/messages', {
        key: quiet.secretKey,
        body: { to: 'bob@example.com', subject: 'Hi', body: 'Hello {{ person.email }}' },
      }),
    );
    const done = await Promise.all(loops);
    expect(mine.value.body).toEqual({ ok: true, id: expect.stringMatching(/^msg_/) });
    // Behind the render running when it came and no further (without turns it would wait for all four).
    const oneLoop = Math.min(...done.map((d) => d.ms));
    expect(mine.ms).toBeLessThan(2 * oneLoop);
  }, 60_000);

  it("/metrics shows the event-loop delay and the render threads' work", async () => {
    const text = await (
      await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).text();
    for (const series of [
      'lifeline_api_nodejs_eventloop_lag_p99_seconds',
      'lifeline_api_nodejs_eventloop_lag_max_seconds',
      'lifeline_render_tasks{state="running"}',
      'lifeline_render_tasks{state="waiting"}',
    ]) {
      expect(text).toMatch(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} [0-9.e-]+$`, 'm'));
    }
  });
});
