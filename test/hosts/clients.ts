// The clients of a run, in the manner of Jepsen: lanes that post through the load balancer while the
// faults run, each keeping every answer it was given. An event or a batch is sent again with its
// idempotency keys while the answer is a 503, a proxy's 502/504 or no answer at all (docs/rest.md#events);
// a message only after a 503 saying nothing was changed, or the load balancer's own 503 (no api was up to
// take it), since a message has no idempotency key. A post to the rate-limited workspace is sent once.
export type Kind = 'event' | 'batch' | 'message' | 'limited';
/** ok; refused (an answer that is not ok, final); unknown (no final answer: it may or may not have happened). */
export type Outcome = 'ok' | 'refused' | 'unknown';

export interface Answer {
  at: number;
  status: number;
  code?: string;
}

export interface Operation {
  kind: Kind;
  /** Its idempotency key (an event), its items' key prefix (a batch), its subject (a message). */
  id: string;
  items: string[];
  outcome: Outcome;
  answers: Answer[];
  /** The message's id when it was answered ok. */
  messageId?: string;
}

export interface Workspaces {
  url: string;
  key: string;
  limitedKey: string;
  email: string;
}

const ATTEMPT_MS = 10_000;
/** A send waits for the provider's answer (docs/rest.md#messages): longer on a loaded machine. */
const SEND_MS = 30_000;
const BATCH_SIZE = 10;

async function post(
  url: string,
  key: string,
  body: unknown,
  waitMs = ATTEMPT_MS,
): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(waitMs),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    // not the service's: the load balancer's own page (a 503 there: no api was up to take it, nothing sent on)
    return { status: response.status, body: { ok: false, error: `balancer_${response.status}` } };
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends until a final answer or the deadline; `again` says whether an answer that is not ok may be sent again. */
async function attempt(
  op: Operation,
  send: () => Promise<{ status: number; body: any }>,
  again: (status: number, body: any) => boolean,
  deadline: number,
): Promise<Operation> {
  for (;;) {
    const answer = await send().catch(() => null);
    const at = Date.now();
    if (answer) op.answers.push({ at, status: answer.status, code: answer.body?.error ?? answer.body?.code });
    else op.answers.push({ at, status: 0 });
    if (answer?.body?.ok === true) {
      op.outcome = 'ok';
      op.messageId = answer.body.id;
      return op;
    }
    if (!again(answer?.status ?? 0, answer?.body) || Date.now() > deadline) {
      op.outcome = answer && op.answers.every((a) => a.status !== 0 && a.status < 502) ? 'refused' : 'unknown';
      return op;
    }
    await pause(Math.min(2_000, 250 * op.answers.length));
  }
}

const transient = (status: number): boolean => status === 503 || status === 502 || status === 504 || status === 0;

export interface Load {
  operations: Operation[];
  /** Stops starting new operations; resolves once every lane has its final answers. */
  stop(): Promise<void>;
}

/** Starts the lanes: `eventLanes` single events, one of batches, one of messages, one on the limited workspace. */
export function startLoad(target: Workspaces, options: { eventLanes: number; retryForMs: number }): Load {
  const operations: Operation[] = [];
  let running = true;
  let stoppedAt = Infinity;
  const deadline = () => Math.min(Date.now(), stoppedAt) + options.retryForMs;
  const events = `${target.url}/api/v1/events`;
  const lane = async (one: (n: number) => Promise<Operation>) => {
    for (let n = 0; running; n++) operations.push(await one(n));
  };
  const event = (id: string) => ({ type: 'hosts_event', anon_id: id, idempotency_key: id, properties: { seq: id } });
  const lanes = [
    ...Array.from({ length: options.eventLanes }, (_, l) =>
      lane((n) => {
        const op: Operation = {
          kind: 'event',
          id: `e${l}-${n}`,
          items: [`e${l}-${n}`],
          outcome: 'unknown',
          answers: [],
        };
        return attempt(op, () => post(events, target.key, event(op.id)), transient, deadline());
      }),
    ),
    lane((n) => {
      const items = Array.from({ length: BATCH_SIZE }, (_, i) => `b${n}-${i}`);
      const op: Operation = { kind: 'batch', id: `b${n}`, items, outcome: 'unknown', answers: [] };
      return attempt(op, () => post(events, target.key, { events: items.map(event) }), transient, deadline());
    }),
    lane(async (n) => {
      const op: Operation = { kind: 'message', id: `m${n}`, items: [], outcome: 'unknown', answers: [] };
      await pause(200);
      const body = { to: target.email, subject: `hosts ${op.id}`, body: 'A message across hosts.' };
      const unchanged = (status: number, answer: any) =>
        status === 503 &&
        (answer?.error === 'balancer_503' || /nothing was changed/i.test(String(answer?.message ?? '')));
      return attempt(op, () => post(`${target.url}/api/v1/messages`, target.key, body, SEND_MS), unchanged, deadline());
    }),
    lane(async (n) => {
      const op: Operation = { kind: 'limited', id: `l${n}`, items: [`l${n}`], outcome: 'unknown', answers: [] };
      await pause(50);
      return attempt(
        op,
        () => post(events, target.limitedKey, event(op.id)),
        () => false,
        deadline(),
      );
    }),
  ];
  const all = Promise.all(lanes);
  return {
    operations,
    async stop() {
      running = false;
      stoppedAt = Date.now();
      await all;
    },
  };
}
