// libs/sdk/README.md#options (5,000 ms per attempt, three attempts) and libs/sdk/README.md#it-never-throws:
// retries only for 5xx and network failures, 429 answered at once, timeouts. Fake timers.
import { Lifeline } from './client';
import { capturingFetch, Reply } from './testing/capturing-fetch';
import { parseRetryAfter, RETRY_WAITS_MS } from './transport';

const KEY = 'sk_live_0123456789abcdefghijklmnopqrstuv';
const URL = 'https://lifeline.example.com';
const OK: Reply = { status: 200, body: { ok: true, status: 'recorded', id: 'per_1' } };
const SERVER_ERROR: Reply = {
  status: 500,
  body: {
    ok: false,
    error: 'server_error',
    message: 'The service could not finish; nothing was changed; send it again.',
  },
};

function client(replies: Reply[], options: { retries?: number; timeoutMs?: number } = {}) {
  const captured = capturingFetch(...replies);
  return { lifeline: new Lifeline(KEY, { url: URL, fetch: captured.fetch, ...options }), calls: captured.calls };
}

/** Runs a call to its end, moving the fake clock through every wait and timeout. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  await jest.runAllTimersAsync();
  return promise;
}

const track = (lifeline: Lifeline) => lifeline.track('signup', { email: 'ada@example.com' });

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('retries: only 5xx and network failures, three attempts in all', () => {
  it('a 500 then a success: two attempts, the success', async () => {
    const { lifeline, calls } = client([SERVER_ERROR, OK]);
    expect(await settle(track(lifeline))).toEqual({ ok: true, status: 'recorded', id: 'per_1' });
    expect(calls).toHaveLength(2);
  });

  it("a 5xx every time: three attempts, then the last answer's own code and sentence", async () => {
    const { lifeline, calls } = client([
      { status: 502, text: 'Bad gateway' },
      { status: 503, text: 'busy' },
      SERVER_ERROR,
    ]);
    expect(await settle(track(lifeline))).toEqual({
      ok: false,
      error: 'server_error',
      message: 'The service could not finish; nothing was changed; send it again.',
      httpStatus: 500,
    });
    expect(calls).toHaveLength(3);
  });

  it('a 5xx that is not JSON on the last attempt is still a refusal with its status', async () => {
    const { lifeline, calls } = client([{ status: 502, text: '<html>Bad gateway</html>' }]);
    expect(await settle(track(lifeline))).toMatchObject({ ok: false, error: 'invalid_response', httpStatus: 502 });
    expect(calls).toHaveLength(3);
  });

  it('fetch throwing twice, then a success: three attempts, the success', async () => {
    const { lifeline, calls } = client([new TypeError('fetch failed'), new TypeError('fetch failed'), OK]);
    expect(await settle(track(lifeline))).toMatchObject({ ok: true });
    expect(calls).toHaveLength(3);
  });

  it('fetch throwing every time: network_error with the cause, httpStatus 0, after three attempts', async () => {
    const cause = Object.assign(new TypeError('fetch failed'), {
      cause: new Error('connect ECONNREFUSED 127.0.0.1:1'),
    });
    const { lifeline, calls } = client([cause]);
    const answer = await settle(track(lifeline));
    expect(answer).toMatchObject({ ok: false, error: 'network_error', httpStatus: 0 });
    expect(!answer.ok && answer.message).toMatch(/ECONNREFUSED.*check the url option/);
    expect(calls).toHaveLength(3);
  });

  it.each([400, 401, 403, 404, 413, 422])('a %d is never retried', async (status) => {
    const { lifeline, calls } = client([{ status, body: { ok: false, error: 'some_code', message: 'Fix it.' } }, OK]);
    expect(await settle(track(lifeline))).toMatchObject({ ok: false, error: 'some_code', httpStatus: status });
    expect(calls).toHaveLength(1);
  });

  it('a 429 is answered at once with retryAfter from Retry-After, not waited out', async () => {
    const { lifeline, calls } = client([
      {
        status: 429,
        body: { ok: false, error: 'rate_limited', message: 'Too many posts: wait 42 seconds.' },
        headers: { 'retry-after': '42' },
      },
      OK,
    ]);
    expect(await settle(track(lifeline))).toEqual({
      ok: false,
      error: 'rate_limited',
      message: 'Too many posts: wait 42 seconds.',
      httpStatus: 429,
      retryAfter: 42,
    });
    expect(calls).toHaveLength(1);
  });

  it('a short wait comes before each retry', async () => {
    const { lifeline, calls } = client([SERVER_ERROR, SERVER_ERROR, OK]);
    const pending = track(lifeline);
    await jest.advanceTimersByTimeAsync(RETRY_WAITS_MS[0] - 1);
    expect(calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(RETRY_WAITS_MS[1] - 1);
    expect(calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    expect(await pending).toMatchObject({ ok: true });
    expect(RETRY_WAITS_MS.every((ms) => ms > 0 && ms <= 1_000)).toBe(true);
  });

  it('retries: 1 makes one attempt only', async () => {
    const { lifeline, calls } = client([SERVER_ERROR, OK], { retries: 1 });
    expect(await settle(track(lifeline))).toMatchObject({ ok: false, error: 'server_error' });
    expect(calls).toHaveLength(1);
  });

  it('retries: 5 makes up to five attempts', async () => {
    const { lifeline, calls } = client([SERVER_ERROR], { retries: 5 });
    await settle(track(lifeline));
    expect(calls).toHaveLength(5);
  });

  it('every method retries the same way (messages.list on a network failure)', async () => {
    const { lifeline, calls } = client([
      new TypeError('fetch failed'),
      { status: 200, body: { ok: true, messages: [] } },
    ]);
    expect(await settle(lifeline.messages.list())).toEqual({ ok: true, messages: [] });
    expect(calls).toHaveLength(2);
  });
});

describe('timeouts: 5,000 ms per attempt by default', () => {
  it('no answer: each attempt is aborted at 5,000 ms, and after three the answer is timeout', async () => {
    const { lifeline, calls } = client(['hang']);
    const pending = track(lifeline);
    await jest.advanceTimersByTimeAsync(4_999);
    expect(calls).toHaveLength(1);
    expect(calls[0].signal?.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls[0].signal?.aborted).toBe(true);
    const answer = await settle(pending);
    expect(answer).toMatchObject({ ok: false, error: 'timeout', httpStatus: 0 });
    expect(!answer.ok && answer.message).toMatch(/within 5000 ms/);
    expect(calls).toHaveLength(3);
  });

  it('timeoutMs sets the time per attempt', async () => {
    const { lifeline, calls } = client(['hang', OK], { timeoutMs: 1_000 });
    const pending = track(lifeline);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(calls[0].signal?.aborted).toBe(true);
    expect(await settle(pending)).toMatchObject({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it('a body that never finishes arriving times out too', async () => {
    const { lifeline, calls } = client([{ status: 200, hangBody: true }], { retries: 1 });
    expect(await settle(track(lifeline))).toMatchObject({ ok: false, error: 'timeout' });
    expect(calls).toHaveLength(1);
  });

  it('a fetch that ignores the abort signal is still given up at the deadline', async () => {
    const never = () => new Promise<never>(() => undefined);
    const lifeline = new Lifeline(KEY, { url: URL, fetch: never, retries: 1, timeoutMs: 2_000 });
    expect(await settle(track(lifeline))).toMatchObject({ ok: false, error: 'timeout' });
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['42', 42],
    [' 7 ', 7],
    ['Thu, 01 Jan 2026 00:01:00 GMT', 60],
    ['', undefined],
    [null, undefined],
    ['soon', undefined],
  ])('%p -> %p', (value, seconds) => {
    expect(parseRetryAfter(value, Date.parse('Thu, 01 Jan 2026 00:00:00 GMT'))).toBe(seconds);
  });
});
