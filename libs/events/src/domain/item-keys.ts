// The person a posted item names: its email, anon_id and account_id, read into identity keys.
import { Refusal } from '@app/platform';
import { IdentityKey, identityKeys, isEmail, normalizeEmail, SourceInput } from '@app/people';
import { isAbsent, Obj, optionalText } from '@app/edge/posted-input';
import { LIMITS } from './input-limits';

const notEmail = (field: string) =>
  new Refusal('invalid_email', `${field} is not an email address: send one like ada@example.com.`);

/** A normalized email, undefined when absent or blank, or invalid_email. */
export function readEmail(input: Obj, field: string): string | undefined | Refusal {
  const value = input[field];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string') return notEmail(field);
  const email = normalizeEmail(value);
  if (email === '') return undefined;
  return isEmail(email) ? email : notEmail(field);
}

/** An anon_id or account_id: refused, not cut, when too long, since a cut id would name someone else. */
export function readId(input: Obj, field: 'anon_id' | 'account_id'): string | undefined | Refusal {
  return optionalText(input, field, { max: LIMITS.identityId });
}

/** The keys of email, anon_id and account_id; source.anon_id stands in for a missing anon_id. */
export function readKeys(input: Obj, source: SourceInput | undefined, emailField = 'email'): IdentityKey[] | Refusal {
  const email = readEmail(input, emailField);
  if (email instanceof Refusal) return email;
  const anonId = readId(input, 'anon_id');
  if (anonId instanceof Refusal) return anonId;
  const accountId = readId(input, 'account_id');
  if (accountId instanceof Refusal) return accountId;
  return identityKeys({ email, anon_id: anonId ?? source?.anon_id, account_id: accountId });
}
