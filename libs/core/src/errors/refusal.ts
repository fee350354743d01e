// One refusal type for every door (interface.md "Errors", decisions.md section 3).
// A Refusal carries a code, a sentence naming the fix, and the HTTP status the code maps to.

export const REFUSAL_STATUS = {
  invalid_json: 400,
  invalid_email: 400,
  unknown_list: 400,
  missing_consent: 400,
  nothing_to_identify: 400,
  no_identity: 400,
  unknown_event: 400,
  invalid_expiry: 400,
  empty_message: 400,
  missing_body: 400,
  invalid_subject: 400,
  reserved_event_name: 400,
  too_many_items: 400,
  invalid_field: 400,
  unsupported_protocol_version: 400,
  invalid_key: 401,
  invalid_token: 401,
  invalid_signature: 401,
  origin_not_allowed: 403,
  no_longer_a_member: 403,
  use_the_public_key_from_browsers: 403,
  forbidden: 403,
  unknown_key: 404,
  unknown_action: 404,
  no_such_person: 404,
  unknown_template: 404,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  too_large: 413,
  not_engaged: 422,
  no_email: 422,
  limit_reached: 422,
  rate_limited: 429,
  server_error: 500,
} as const;

export type RefusalCode = keyof typeof REFUSAL_STATUS;

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
