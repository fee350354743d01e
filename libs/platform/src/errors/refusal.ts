// One refusal type for every door (docs/rest.md#answers-and-refusals).
// A Refusal carries a code, a sentence naming the fix, and the HTTP status the code maps to.
// The codes and their statuses live in the wire module, which the client package shares.
import { REFUSAL_STATUS, RefusalCode } from '@app/wire';

export class Refusal extends Error {
  readonly status: number;

  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'Refusal';
    this.status = REFUSAL_STATUS[code];
  }

  toBody(): { ok: false; error: RefusalCode; message: string } & Record<string, unknown> {
    return { ok: false, error: this.code, message: this.message, ...this.extra };
  }
}

export function isRefusal(value: unknown): value is Refusal {
  return value instanceof Refusal;
}
