// The answers of a door that takes items (interface.md "Events endpoint", decisions.md section 3): one
// item answers its result or its refusal; a batch answers 200 when every item went through and 207
// partial_failure otherwise, each result with its index. Shaped here and nowhere else.
import { Refusal } from '@app/platform';
import { ActionSuccess, BatchItemResult, BatchRefusal, BatchSuccess, PARTIAL_FAILURE } from '@app/wire';

/** An item's success, as the wire module (shared with the client package) shapes it. */
export type ItemSuccess = ActionSuccess;
export type ItemOutcome = ItemSuccess | Refusal;

/**
 * The heartbeat answer of a success when it is not its status (a honeypot post is told the usual
 * status and counted as honeypot). A symbol, so it never reaches the JSON answer.
 */
export const HEARTBEAT_ANSWER = Symbol('heartbeat answer');

/** What the heartbeat counts for one outcome: its status, or its refusal's code. */
export function heartbeatAnswer(outcome: ItemOutcome): string {
  if (outcome instanceof Refusal) return outcome.code;
  return (outcome as ItemSuccess & { [HEARTBEAT_ANSWER]?: string })[HEARTBEAT_ANSWER] ?? outcome.status;
}

/** A handler returns this for a batch; the door (open-door.ts) counts each item and shapes the answer. */
export class BatchAnswer {
  constructor(
    readonly outcomes: ItemOutcome[],
    /** The action of each item, for the heartbeat. */
    readonly actions: string[],
  ) {}

  get status(): 200 | 207 {
    return this.outcomes.every((o) => !(o instanceof Refusal)) ? 200 : 207;
  }

  body(): BatchSuccess | BatchRefusal {
    const results: BatchItemResult[] = this.outcomes.map((o, index) => (o instanceof Refusal ? { index, ...o.toBody() } : { index, ...o }));
    if (this.status === 200) return { ok: true, results };
    return { ok: false, error: PARTIAL_FAILURE, message: 'Some items were refused; each result says why. The others were recorded.', results };
  }
}

/** One item: its success is the answer, its refusal is thrown (and answered by the filter). */
export function itemAnswer(outcome: ItemOutcome): ItemSuccess {
  if (outcome instanceof Refusal) throw outcome;
  return outcome;
}

/** One item answered with ok and status only (website endpoints never tell ids); its heartbeat answer stays. */
export function statusAnswer(outcome: ItemOutcome): ItemSuccess {
  const success = itemAnswer(outcome) as ItemSuccess & { [HEARTBEAT_ANSWER]?: string };
  return { ok: true, status: success.status, ...(success[HEARTBEAT_ANSWER] ? { [HEARTBEAT_ANSWER]: success[HEARTBEAT_ANSWER] } : {}) };
}
