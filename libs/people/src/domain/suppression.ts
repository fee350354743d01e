// An erased identity is kept only as a keyed hash, so the service can tell a
// later post names it without keeping the identity itself. HMAC-SHA256 under the deployment's
// APP_SECRET (a leaked table cannot be reversed by hashing guesses without the secret), over the
// workspace and the normalized key, so one person erased in one workspace is not suppressed in another.
import { createHmac } from 'node:crypto';
import type { IdentityKey } from './identity';

/** The suppression list's hash of one identity key of one workspace. */
export function suppressionHash(secret: string, workspaceId: string, key: IdentityKey): string {
  return createHmac('sha256', `suppression:${secret}`)
    .update(`${workspaceId}\0${key.kind}\0${key.value}`)
    .digest('base64url');
}

/**
 * The erasure log's stand-in for a record id: a keyed hash, so the log names no one yet proves which erasure is which.
 */
export function erasedRecordHash(secret: string, workspaceId: string, personId: string): string {
  return createHmac('sha256', `erasure:${secret}`).update(`${workspaceId}\0${personId}`).digest('base64url');
}
