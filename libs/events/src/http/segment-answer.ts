// Segment's answer to a post (docs/rest.md#segments-http-tracking-api).
import { BatchAnswer, ItemOutcome } from '@app/edge';
import { Refusal } from '@app/platform';
import { PARTIAL_FAILURE, type WireRefusal } from '@app/wire';

type SegmentResult = { ok: true; status: string; id?: string } | WireRefusal;
/** Segment's answer, with Lifeline's result of each call beside it. */
type SegmentBody = { success: true } & (
  | SegmentResult
  | { ok: boolean; error?: typeof PARTIAL_FAILURE; message?: string; results: Array<{ index: number } & SegmentResult> }
);

/**
 * A Segment call's answer: always 200 with success (Segment's clients retry nothing else and drop a 4xx
 * batch whole), each call counted in the heartbeat by the door as a batch's items are. A public key's
 * answers carry no ids, as the website endpoints'.
 */
export class SegmentAnswer extends BatchAnswer {
  constructor(
    outcomes: ItemOutcome[],
    actions: string[],
    private readonly batch: boolean,
    private readonly tellsIds: boolean,
  ) {
    super(outcomes, actions);
  }

  override get status(): 200 {
    return 200;
  }

  override body(): SegmentBody {
    const results = this.outcomes.map((o, index) =>
      o instanceof Refusal
        ? { index, ...(o.toBody() as WireRefusal) }
        : { index, ok: true as const, status: o.status, ...(this.tellsIds && o.id ? { id: o.id } : {}) },
    );
    if (!this.batch) {
      const { index: _index, ...result } = results[0];
      return { success: true, ...result };
    }
    const refused = results.filter((r) => !r.ok).length;
    if (refused === 0) return { success: true, ok: true, results };
    return {
      success: true,
      ok: false,
      error: PARTIAL_FAILURE,
      message:
        `${refused} of ${results.length} calls could not be recorded; each result says why. The others were ` +
        `recorded.`,
      results,
    };
  }
}
