// Who posts a Segment call (docs/rest.md#segments-http-tracking-api): the write key, as HTTP Basic's user
// name (empty password) or writeKey in the body. A secret key acts under the server rules; a public key
// under the website rules, from the workspace's sites when an Origin is sent.
import type { IncomingHttpHeaders } from 'node:http';
import { DoorRequest } from '@app/edge';
import { isObject } from '@app/edge/posted-input';
import { Refusal } from '@app/platform';
import {
  originAllowed,
  PUBLIC_KEY_PREFIX,
  type SecretKeyOptions,
  WorkspaceEntity,
  WorkspacesService,
} from '@app/workspaces';

/** Who posted, found by authenticate: a public key's workspace and visitor (a secret key sets req.auth). */
interface SegmentCaller {
  workspace?: WorkspaceEntity;
  origin?: string;
  visitor?: string;
}
export type SegmentRequest = DoorRequest & { segmentCaller?: SegmentCaller; headers: IncomingHttpHeaders };

/** The post's writes check its key (keyRecheckCte), as on the events endpoint. */
const RECHECKED_BY_WRITE: SecretKeyOptions = { recheckedByWrite: true };

const NO_KEY =
  'Send the write key as the HTTP Basic user name with an empty password, or as writeKey in the body: the ' +
  'secret key (sk_live_…) from servers, the public key (wk_…) from browsers.';
const UNKNOWN_KEY =
  'That write key is not a key of any workspace: copy the secret key (sk_live_…) or the public key (wk_…) ' +
  'again from the workspace settings.';

export const callerOf = (req: DoorRequest): SegmentCaller => (req as SegmentRequest).segmentCaller ?? {};
export const isPublic = (req: DoorRequest): boolean => !req.auth;

/** The write key: HTTP Basic's user name, else a bearer token, else writeKey in the body. */
function writeKeyOf(headers: IncomingHttpHeaders, body: unknown): string | undefined {
  const authorization = headers.authorization ?? '';
  const basic = /^Basic\s+(\S+)\s*$/i.exec(authorization);
  if (basic) {
    const user = Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
    if (user) return user;
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) return bearer[1];
  return isObject(body) && typeof body.writeKey === 'string' && body.writeKey !== '' ? body.writeKey : undefined;
}

/**
 * The visitor's address: Express's req.ip, or on the hot path the same, read by the same TRUST_PROXY rule (one proxy).
 */
function visitorOf(req: SegmentRequest, trustProxy: boolean): string {
  if (req.ip) return req.ip;
  const remote = req.socket?.remoteAddress ?? '';
  if (!trustProxy) return remote;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  return forwarded[forwarded.length - 1] ?? remote;
}

/** Who posts, from the write key: a public key's caller on the request, a secret key's auth, or a refusal. */
export async function authenticate(
  req: SegmentRequest,
  { workspaces, trustProxy }: { workspaces: WorkspacesService; trustProxy: boolean },
  res: { setHeader(name: string, value: string): unknown },
): Promise<void> {
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
  if (origin) {
    // Every answer is readable by the page, so a refused browser call is dropped, not retried blind.
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
  }
  const key = writeKeyOf(req.headers, req.body);
  if (!key) throw new Refusal('invalid_key', NO_KEY);
  if (key.startsWith(PUBLIC_KEY_PREFIX)) {
    const workspace = await workspaces.findByPublicKey(key);
    if (!workspace) throw new Refusal('invalid_key', UNKNOWN_KEY);
    if (origin && !originAllowed(origin, workspace.allowedOrigins)) {
      throw new Refusal(
        'origin_not_allowed',
        `Posts are accepted only from the sites the workspace names, not ${origin.slice(0, 100)}: add the site ` +
          `to the allowed origins.`,
      );
    }
    req.doorWorkspaceId = workspace.id;
    req.segmentCaller = { workspace, origin, visitor: visitorOf(req, trustProxy) };
    return;
  }
  if (origin) {
    throw new Refusal(
      'use_the_public_key_from_browsers',
      "A secret key never belongs in a browser: give Segment's browser library the public key (wk_…), and make " +
        'a new secret key.',
    );
  }
  try {
    req.auth = await workspaces.authenticate(`Bearer ${key}`, RECHECKED_BY_WRITE);
  } catch (error) {
    throw error instanceof Refusal && error.code === 'invalid_key' ? new Refusal('invalid_key', UNKNOWN_KEY) : error;
  }
}
