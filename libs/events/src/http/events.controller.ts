// POST and GET /api/v1/events (docs/rest.md#events, docs/rest.md#answers-and-refusals).
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { SecretKeyOptions, WorkspacesService } from '@app/workspaces';
import {
  BatchAnswer,
  bySecretKey,
  door,
  DoorRequest,
  DoorRoute,
  Doors,
  itemAnswer,
  OpenDoor,
  Reference,
  schemaRef,
  SERVER_BODY_LIMIT,
} from '@app/edge';
import { LIMITS as RATE_LIMITS } from '@app/platform';
import { itemAction, LIMITS } from '../domain';
import { parseEventsPost } from '../domain/item-fields';
import { HeartbeatService } from '../heartbeat.service';
import { IngestService } from '../ingest/ingest.service';
import { describeEventsEndpoint } from './events-description';

/** The refusals of an item, whether it comes alone or in a batch (domain/event-input.ts, ingest-unit.ts). */
export const ITEM_REFUSALS = [
  'invalid_email',
  'unknown_list',
  'missing_consent',
  'nothing_to_identify',
  'no_identity',
  'unknown_event',
  'reserved_event_name',
  'invalid_expiry',
  'empty_message',
] as const;

interface EventsDoorServices {
  ingest: IngestService;
  workspaces: WorkspacesService;
  heartbeat: HeartbeatService;
}

/** The post's writes check its key (keyRecheckCte), so a key this process has seen live is not looked up. */
const RECHECKED_BY_WRITE: SecretKeyOptions = { recheckedByWrite: true };

/** POST /api/v1/events: one event object, or a batch, from servers; answered by the hot door. */
const EVENTS_DOOR = door({
  method: 'POST',
  path: '/api/v1/events',
  status: 200,
  bodyLimit: SERVER_BODY_LIMIT,
  hot: true,
  eventItems: 'server',
  authenticate: (req, { workspaces }: EventsDoorServices) => workspaces.authenticateRequest(req, RECHECKED_BY_WRITE),
  rateLimit: { limit: 'server', key: bySecretKey },
  heartbeat: { action: (req) => itemAction(req.body), origin: () => 'server' },
  parse: (req) => parseEventsPost(req.body),
  async handle(parsed, req, { ingest, workspaces }) {
    const auth = req.auth!;
    const workspace = await workspaces.get(auth.workspaceId);
    const options = { publicDoor: false, recheck: auth.recheck };
    if (!parsed.batch) return itemAnswer((await ingest.ingest(workspace, [parsed.item], options))[0]);
    const { items, fieldRefusals } = parsed;
    // Items refused for their fields keep their places; ingest answers the rest (and checks the key when none is left).
    const results = await ingest.ingest(
      workspace,
      items.filter((_, i) => !fieldRefusals[i]),
      options,
    );
    const outcomes = items.map((_, i) => fieldRefusals[i] ?? results.shift()!);
    return new BatchAnswer(outcomes, items.map(itemAction));
  },
});

@Controller()
export class EventsController {
  private readonly events: OpenDoor<EventsDoorServices>;

  constructor(doors: Doors, ingest: IngestService, workspaces: WorkspacesService, heartbeat: HeartbeatService) {
    this.events = doors.open(EVENTS_DOOR, { ingest, workspaces, heartbeat });
  }

  @Get(EVENTS_DOOR.path)
  @Reference({
    operationId: 'getEventsDescription',
    summary: 'What to post to the events endpoint',
    description:
      'The fields of each kind of item, the statuses each answers, the built-in event names and the limits, so ' +
      'a caller sees what to post. Takes no key and never echoes one.',
    tag: 'events',
    caller: 'anyone',
    answers: {
      200: {
        description: 'The events endpoint, described.',
        schema: 'EventsDescription',
        example: describeEventsEndpoint(),
      },
    },
    refuses: [],
  })
  describe() {
    return describeEventsEndpoint();
  }

  @DoorRoute(EVENTS_DOOR, {
    operationId: 'postEvents',
    summary: 'Record an event, or a batch of items',
    description: [
      'One item (an event, or an item whose type is identify, subscribe, unsubscribe or support with that ' +
        "action's " +
        'fields), or `{"events": [...]}` with up to ' +
        (`${LIMITS.batchItems} items, at most ${SERVER_BODY_LIMIT / 1024} KB. A single item answers its status ` +
          `and the id of the record it landed on, or its refusal.`),
      "A batch answers 200 when every item went through, else 207 partial_failure with every item's result in " +
        'order; an item refused does not discard the others. ' +
        'A repeated idempotency_key writes nothing and answers as the first post did.',
      `Limited to ${RATE_LIMITS.server} posts per secret key in ten minutes.`,
    ].join('\n\n'),
    tag: 'events',
    caller: 'secret key',
    body: {
      schema: { anyOf: [schemaRef('WireItem'), schemaRef('WireBatch')] },
      example: describeEventsEndpoint().example,
    },
    answers: {
      200: {
        description:
          'One item recorded (or expired: an expires_at already past writes nothing), or a batch whose items ' +
          'were all ok.',
        schema: { anyOf: [schemaRef('ActionSuccess'), schemaRef('BatchSuccess')] },
        example: { ok: true, status: 'recorded', id: 'evt_01JD2Q7Z9X4R8T6W3Y5V0N1M2K' },
      },
      207: {
        description:
          "partial_failure: some items of the batch were refused; results holds every item's own answer, in " +
          'the order sent.',
        schema: 'BatchRefusal',
      },
    },
    refuses: ['invalid_key', 'no_longer_a_member', 'too_many_items', ...ITEM_REFUSALS],
  })
  post(@Req() req: DoorRequest, @Res() res: Response) {
    return this.events.serve(req, res);
  }
}
