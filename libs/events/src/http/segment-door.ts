// Segment's HTTP Tracking API as a door of events (docs/rest.md#segments-http-tracking-api). POST
// {BASE_URL}/v1/{call} takes what a Segment client posts (track, identify, page, screen, group, alias,
// batch and import, and the one-letter paths of Segment's browser library), so a team switches by changing
// the client's host. Every call becomes events-endpoint items (domain/segment-call.ts) that go through
// IngestService like any other.
//
// Who posts (segment-caller.ts): a secret key acts under the server rules (custom names, 600 posts per key
// in ten minutes); a public key under the website rules (the tag's names, 8 KB per body, per-IP limits that
// count each call, the workspace's sites when an Origin is sent). Answers as Segment's (segment-answer.ts):
// 200 {"success": true} with Lifeline's result of each call beside it (a call that could not be recorded is
// counted by its refusal code, and its batch's other calls are kept); 400 for a body that is not JSON or over
// Segment's sizes, 401 for a missing or unknown key, 413 for a public key's body over 8 KB, 429 when limited.
import { BROWSER_BODY_LIMIT, door, DoorRequest, doorWorkspaceId, ItemOutcome, tooLargeRefusal } from '@app/edge';
import { isObject } from '@app/edge/posted-input';
import { type LimitName, RateLimits, Refusal } from '@app/platform';
import { WorkspacesService } from '@app/workspaces';
import {
  SEGMENT_BATCH_LIMIT,
  SEGMENT_MESSAGE_LIMIT,
  SEGMENT_PATHS,
  segmentAction,
  segmentArrival,
  SegmentCallType,
  segmentItem,
} from '../domain';
import { HeartbeatService } from '../heartbeat.service';
import { IngestService } from '../ingest/ingest.service';
import { SegmentAnswer } from './segment-answer';
import { authenticate, callerOf, isPublic, type SegmentRequest } from './segment-caller';

export interface SegmentServices {
  ingest: IngestService;
  workspaces: WorkspacesService;
  heartbeat: HeartbeatService;
  /** A public key's batch spends one of its visitor's allowance per call (the door spends the first). */
  limits: RateLimits;
  /** TRUST_PROXY: which address is the visitor's on the hot path, as Express reads it on its own. */
  trustProxy: boolean;
}

/** What a post becomes: each call's item (or the refusal of its own fields) and heartbeat action. */
export interface SegmentPost {
  batch: boolean;
  /** Posted to /v1/import: every call is history (docs/decisions.md#history-starts-no-automation). */
  imported?: boolean;
  items: Array<Record<string, unknown> | Refusal>;
  actions: string[];
}

/**
 * The most bytes read: twice Segment's batch limit, so a body over Segment's sizes is answered as Segment does (400).
 */
const SEGMENT_READ_LIMIT = 2 * SEGMENT_BATCH_LIMIT;
/** Items per ingest: a long batch goes in parts the size of the events endpoint's batches. */
const INGEST_PART = 100;

const RETRY =
  'The service could not finish some of the calls; send them again: calls already recorded are not recorded ' +
  'twice (messageId).';

/** The call a path names (track, …, or batch), or undefined for a path that names none. */
function routeOf(call: string): SegmentCallType | 'batch' | undefined {
  return Object.prototype.hasOwnProperty.call(SEGMENT_PATHS, call) ? SEGMENT_PATHS[call] : undefined;
}

/** The body's size: its Content-Length, or when it came compressed or chunked, its JSON's. */
function bodyBytes(req: SegmentRequest): number {
  const length = Number(req.headers['content-length']);
  if (Number.isFinite(length) && req.headers['content-encoding'] === undefined) return length;
  return Buffer.byteLength(JSON.stringify(req.body ?? null));
}

const messageTooLarge = (which: string) =>
  new Refusal(
    'invalid_field',
    `${which} is over ${SEGMENT_MESSAGE_LIMIT / 1024} KB, Segment's limit for one call: send less in its ` +
      `properties or traits.`,
  );

function parse(req: SegmentRequest, call: string): SegmentPost | Refusal {
  const route = routeOf(call);
  if (!route) {
    return new Refusal(
      'unknown_action',
      `"${call.slice(0, 40)}" is not a Segment call: post to /v1/track, identify, page, screen, group, alias, ` +
        `batch or import.`,
    );
  }
  const body = req.body;
  const size = bodyBytes(req);
  // A browser's post, as at the website endpoints (docs/rest.md#website-endpoints).
  if (isPublic(req) && size > BROWSER_BODY_LIMIT) return tooLargeRefusal(BROWSER_BODY_LIMIT);
  const receivedAt = new Date();
  if (route !== 'batch') {
    if (size > SEGMENT_MESSAGE_LIMIT) return messageTooLarge('The call');
    if (!isObject(body))
      return new Refusal(
        'invalid_json',
        'Send the call as one JSON object, like {"event": "Signed Up", "userId": "u-1"}.',
      );
    return {
      batch: false,
      items: [segmentItem(body, route, segmentArrival(receivedAt))],
      actions: [segmentAction(body, route)],
    };
  }
  if (size > SEGMENT_BATCH_LIMIT) {
    return new Refusal(
      'too_many_items',
      `A batch call carries at most ${SEGMENT_BATCH_LIMIT / 1024} KB, Segment's limit: split it into smaller batches.`,
    );
  }
  if (!isObject(body) || !Array.isArray(body.batch) || body.batch.length === 0)
    return new Refusal('invalid_json', 'Send {"batch": [...]} with at least one call.');
  const messages: unknown[] = body.batch;
  // Each call's own size matters only when the whole could hold one over the limit.
  if (size > SEGMENT_MESSAGE_LIMIT) {
    const over = messages.findIndex((m) => Buffer.byteLength(JSON.stringify(m) ?? '') > SEGMENT_MESSAGE_LIMIT);
    if (over >= 0) return messageTooLarge(`batch[${over}]`);
  }
  const arrival = segmentArrival(receivedAt, body);
  return {
    batch: true,
    imported: call === 'import',
    items: messages.map((m) => segmentItem(m, undefined, arrival)),
    actions: messages.map((m) => segmentAction(m, undefined)),
  };
}

/** Whose allowance a public key's post spends: its visitor's, per workspace. */
const visitorKey = (req: DoorRequest) => `${doorWorkspaceId(req)}:${callerOf(req).visitor}`;

/** Each call's item through IngestService, a long batch in parts; the mapping's own refusals kept in their places. */
async function handle(
  post: SegmentPost,
  req: DoorRequest,
  { ingest, workspaces, limits }: SegmentServices,
): Promise<SegmentAnswer> {
  // The door counted the post as one call; a public key's batch spends the rest before anything is written.
  if (isPublic(req) && post.items.length > 1)
    await limits.consume('public:event', visitorKey(req), post.items.length - 1, 1, doorWorkspaceId(req));
  const workspace = req.auth ? await workspaces.get(req.auth.workspaceId) : callerOf(req).workspace!;
  const options = { publicDoor: isPublic(req), recheck: req.auth?.recheck, imported: post.imported };
  const outcomes = post.items.slice() as ItemOutcome[]; // the mapping's refusals stay; the rest are filled in below
  const at: number[] = [];
  post.items.forEach((item, index) => item instanceof Refusal || at.push(index));
  const parts: number[][] = [];
  for (let i = 0; i < at.length; i += INGEST_PART) parts.push(at.slice(i, i + INGEST_PART));
  if (parts.length === 0) parts.push([]); // nothing to write: ingest still checks the key (recheck)
  const results = await Promise.all(
    parts.map((part) =>
      ingest.ingest(
        workspace,
        part.map((i) => post.items[i]),
        options,
      ),
    ),
  );
  parts.forEach((part, p) => part.forEach((index, i) => (outcomes[index] = results[p][i])));
  // Retried whole: what was recorded is not recorded twice, since messageId is the idempotency key.
  if (outcomes.some((o) => o instanceof Refusal && o.code === 'server_error')) throw new Refusal('server_error', RETRY);
  return new SegmentAnswer(outcomes, post.actions, post.batch, !isPublic(req));
}

/** The rate limit a post spends: its secret key's, or its visitor's for the kind of call (a batch counts as events). */
function limitOf(req: DoorRequest, call: string): LimitName {
  if (!isPublic(req)) return 'server';
  const route = routeOf(call);
  return route === 'identify' || route === 'group' || route === 'alias' ? 'public:identify' : 'public:event';
}

/** A Segment door at `path`; `callOf` reads which call it takes (the path's last part). */
export function segmentDoor(path: string, callOf: (req: DoorRequest) => string, hot = false) {
  return door<SegmentServices, SegmentPost>({
    method: 'POST',
    path,
    status: 200,
    bodyLimit: SEGMENT_READ_LIMIT,
    hot,
    eventItems: 'segment',
    authenticate: (req, services, res) => authenticate(req as SegmentRequest, services, res),
    rateLimit: {
      limit: (req) => limitOf(req, callOf(req)),
      key: (req) => (isPublic(req) ? visitorKey(req) : req.auth!.keyId),
    },
    heartbeat: {
      action: (req) => {
        const route = routeOf(callOf(req));
        return route && route !== 'batch' ? segmentAction(undefined, route) : 'event';
      },
      origin: (req) => (isPublic(req) ? (callerOf(req).origin ?? 'app') : 'server'),
    },
    parse: (req) => parse(req as SegmentRequest, callOf(req)),
    handle,
  });
}
