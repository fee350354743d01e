// list_broadcasts and get_broadcast: the same service as the GraphQL broadcasts and broadcast fields
// (docs/graphql.md#broadcasts).
import { z } from 'zod';
import { Refusal } from '@app/platform';
import type { BroadcastRow, BroadcastsService } from '@app/messaging';
import { defineTool } from './tool';

const counts = z.object({
  sent: z.number(),
  failed: z.number(),
  skipped: z.number(),
  pending: z.number().describe('Not reached yet (queued or sending).'),
  cancelled: z.number(),
});
const broadcastShape = z.object({
  id: z.string(),
  name: z.string(),
  state: z.string().describe('draft, scheduled, sending, paused, sent or cancelled'),
  list: z.string().nullable().describe("The list's address, for a broadcast to a list."),
  segment: z.string().nullable().describe("The segment's id, for a broadcast to a segment."),
  audience: z.number().nullable().describe('Recipients fixed when sending started; null before.'),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  counts,
});

export function broadcastTools(broadcasts: BroadcastsService) {
  return [listBroadcasts(broadcasts), getBroadcast(broadcasts)];
}

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

async function shapes(broadcasts: BroadcastsService, workspaceId: string, rows: BroadcastRow[]) {
  const tallies = await broadcasts.tallies(
    workspaceId,
    rows.map((r) => r.id),
  );
  return Promise.all(
    rows.map(async (row) => {
      const t = tallies.get(row.id);
      return {
        id: row.id,
        name: row.name,
        state: row.state,
        list: await broadcasts.listAddress(row),
        segment: row.segment_id,
        audience: row.audience,
        scheduledAt: iso(row.scheduled_at),
        startedAt: iso(row.started_at),
        finishedAt: iso(row.finished_at),
        counts: {
          sent: t?.sent ?? 0,
          failed: t?.failed ?? 0,
          skipped: t?.skipped ?? 0,
          pending: (t?.queued ?? 0) + (t?.sending ?? 0),
          cancelled: t?.cancelled ?? 0,
        },
        skippedBy: t?.skippedBy ?? [],
      };
    }),
  );
}

function listBroadcasts(broadcasts: BroadcastsService) {
  return defineTool({
    name: 'list_broadcasts',
    readOnly: true,
    description:
      "The workspace's broadcasts (one email to a list or a segment), newest first, at most 50: id, name, state, " +
      'audience and how many were sent, failed, skipped and not reached yet. Read one with get_broadcast.',
    input: {},
    output: { broadcasts: z.array(broadcastShape) },
    run: async ({ auth }) => {
      const page = await broadcasts.page(auth.workspaceId, 50);
      const shown = await shapes(
        broadcasts,
        auth.workspaceId,
        page.edges.map((e) => e.node),
      );
      return { broadcasts: shown.map(({ skippedBy: _, ...rest }) => rest) };
    },
  });
}

function getBroadcast(broadcasts: BroadcastsService) {
  return defineTool({
    name: 'get_broadcast',
    readOnly: true,
    description:
      'Read one broadcast by id (bc_…, as list_broadcasts shows it): its name, state, audience, subject, its ' +
      'counts, the skipped by reason (unsubscribed, left_segment, no_email, not_engaged, opted_out, ' +
      'undeliverable, erased, merged), and how many emails were opened and clicked.',
    input: { id: z.string().describe('The broadcast id (bc_…).') },
    output: {
      broadcast: broadcastShape.extend({
        subject: z.string().nullable(),
        skippedBy: z.array(z.object({ reason: z.string(), count: z.number() })),
        opened: z.number(),
        clicked: z.number(),
      }),
    },
    run: async ({ auth }, input) => {
      const row = await broadcasts.find(auth.workspaceId, input.id);
      if (!row) throw new Refusal('not_found', 'No broadcast has that id: list them with list_broadcasts.');
      const [[shape], [engagement]] = await Promise.all([
        shapes(broadcasts, auth.workspaceId, [row]),
        broadcasts.engagement(auth.workspaceId, [row.id]),
      ]);
      return {
        broadcast: {
          ...shape,
          subject: row.subject,
          opened: engagement?.opened ?? 0,
          clicked: engagement?.clicked ?? 0,
        },
      };
    },
  });
}
