// docs/rest.md#an-automations-start-address: a JSON object of at most 8 KB naming the person by
// { email } (may create them), { anon_id, properties? } or { record, properties? } (find only).
// properties carry the customer's facts into the run; only their names ever reach the log.
import { Refusal } from '@app/platform';
import { isEmail, MAX_ID_LENGTH, normalizeEmail } from '@app/people';
import { isObject } from '@app/edge/posted-input';

/** Body size at an automation address (docs/rest.md#an-automations-start-address). */
export const START_BODY_MAX_BYTES = 8 * 1024;

export type StartPerson =
  { by: 'email'; email: string } | { by: 'anon_id'; anonId: string } | { by: 'record'; id: string };

/** The body as posted: exactly one of email, anon_id and record names the person. */
export interface WireAutomationStart {
  /** Finds the person by email address, or creates them. */
  email?: string;
  /** Finds the person by the browser id of the website tag. */
  anon_id?: string;
  /** Finds the person by their record id. */
  record?: string;
  /** The customer's own facts for the run's steps; only their names reach the log. */
  properties?: Record<string, unknown>;
}

export interface StartBody {
  person: StartPerson;
  properties: Record<string, unknown> | null;
}

/** The raw bytes as posted: size first, then JSON, then who it names. */
export function parseStartBody(raw: Buffer | undefined): StartBody | Refusal {
  const bytes = raw ?? Buffer.alloc(0);
  if (bytes.length > START_BODY_MAX_BYTES)
    return new Refusal('too_large', 'The body is over 8 KB: send only the person and the properties the steps need.');
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return new Refusal(
      'invalid_json',
      'The body is not valid JSON: send one JSON object such as {"email": "ada@example.com"}.',
    );
  }
  if (!isObject(body)) return new Refusal('invalid_json', 'Send one JSON object such as {"email": "ada@example.com"}.');

  const named = (['email', 'anon_id', 'record'] as const satisfies ReadonlyArray<keyof WireAutomationStart>).filter(
    (key) => body[key] !== undefined && body[key] !== null,
  );
  if (named.length === 0) return new Refusal('no_identity', 'Name the person with email, anon_id or record.');
  if (named.length > 1)
    return new Refusal(
      'invalid_field',
      `Name the person one way only: send one of email, anon_id and record, not ${named.join(' and ')}.`,
      { field: named[1] },
    );
  if (body.properties != null && !isObject(body.properties)) {
    return new Refusal('invalid_field', 'properties must be a JSON object of your own facts.', { field: 'properties' });
  }
  const properties = (body.properties as Record<string, unknown> | undefined) ?? null;
  const value = body[named[0]];
  switch (named[0]) {
    case 'email': {
      const email = typeof value === 'string' ? normalizeEmail(value) : '';
      if (!isEmail(email))
        return new Refusal('invalid_email', 'email is not an email address: send one like ada@example.com.');
      return { person: { by: 'email', email }, properties };
    }
    case 'anon_id':
    case 'record': {
      const id = typeof value === 'string' ? value.trim() : '';
      if (!id || id.length > MAX_ID_LENGTH)
        return new Refusal('invalid_field', `${named[0]} must be a string of 1 to ${MAX_ID_LENGTH} characters.`, {
          field: named[0],
        });
      return { person: named[0] === 'record' ? { by: 'record', id } : { by: 'anon_id', anonId: id }, properties };
    }
  }
}

/** What the run's log may say about properties: their names, never their values. */
export function propertyNames(properties: Record<string, unknown> | null): string[] {
  return properties ? Object.keys(properties) : [];
}
