// An erased identity is kept only as a keyed hash, so the service can tell a
// later post names it without keeping the identity itself. HMAC-SHA256 under the deployment's
// APP_SECRET (a leaked table cannot be reversed by hashing guesses without the secret), over the
// workspace and the normalized key, so one person erased in one workspace is not suppressed in another.
import { createHmac } from 'node:crypto';
import { type IdentityKey, isEmail, normalizeEmail } from './identity';

/** The suppression list's hash of one identity key of one workspace. */
export function suppressionHash(secret: string, workspaceId: string, key: IdentityKey): string {
  return createHmac('sha256', `suppression:${secret}`)
    .update(`${workspaceId}\0${key.kind}\0${key.value}`)
    .digest('base64url');
}

/**
 * The keys a post's key is checked as against the suppression list
 * (docs/decisions.md#erasure-leaves-no-trace-and-no-way-around): itself, and its value under the other
 * kinds (an email-shaped value as an email, normalized). An erased identifier stays erased whichever kind
 * a post files it under: a Segment alias files its previousId, often the account id the person had, as an
 * anon_id; a userId may be an email address.
 */
export function suppressionProbes(key: IdentityKey): IdentityKey[] {
  const probes: IdentityKey[] = [key];
  const add = (probe: IdentityKey) => {
    if (!probes.some((p) => p.kind === probe.kind && p.value === probe.value)) probes.push(probe);
  };
  add({ kind: 'account_id', value: key.value });
  add({ kind: 'anon_id', value: key.value });
  const email = normalizeEmail(key.value);
  if (isEmail(email)) add({ kind: 'email', value: email });
  return probes;
}

/**
 * The erasure log's stand-in for a record id: a keyed hash, so the log names no one yet proves which erasure is which.
 */
export function erasedRecordHash(secret: string, workspaceId: string, personId: string): string {
  return createHmac('sha256', `erasure:${secret}`).update(`${workspaceId}\0${personId}`).digest('base64url');
}
