// list_segments and get_segment: the same service as the GraphQL segments and segment fields
// (docs/graphql.md#segments).
import { z } from 'zod';
import { Refusal } from '@app/platform';
import type { SegmentsService } from '@app/events';
import { defineTool } from './tool';
import { personShape, summary } from './people.tools';

const MEMBERS_SHOWN = 50;

export function segmentTools(segments: SegmentsService) {
  return [listSegments(segments), getSegment(segments)];
}

function listSegments(segments: SegmentsService) {
  return defineTool({
    name: 'list_segments',
    readOnly: true,
    description:
      "The workspace's live segments, oldest first: id, name, how many people are in each now, and whether it " +
      'is still filling (its members are being found after a new or changed definition). Read one with get_segment.',
    input: {},
    output: {
      segments: z.array(z.object({ id: z.string(), name: z.string(), count: z.number(), filling: z.boolean() })),
    },
    run: async ({ auth }) => {
      const rows = await segments.list(auth.workspaceId);
      const counts = new Map(
        (
          await segments.counts(
            auth.workspaceId,
            rows.map((r) => r.id),
          )
        ).map((c) => [c.segment_id, c.count]),
      );
      return {
        segments: rows.map((r) => ({ id: r.id, name: r.name, count: counts.get(r.id) ?? 0, filling: r.filling })),
      };
    },
  });
}

function getSegment(segments: SegmentsService) {
  return defineTool({
    name: 'get_segment',
    readOnly: true,
    description:
      'Read one live segment by id (seg_…, as list_segments shows it): its name, its definition (JSON conditions ' +
      'on stage, list, fields, events, engagement and first touch, joined by all, any and not), how many people ' +
      `are in it, whether it is still filling and how far, and its first ${MEMBERS_SHOWN} members by record id.`,
    input: { id: z.string().describe('The segment id (seg_…).') },
    output: {
      segment: z.object({
        id: z.string(),
        name: z.string(),
        definition: z.unknown(),
        count: z.number(),
        filling: z.boolean(),
        fill: z.object({ done: z.number(), total: z.number().nullable() }).nullable(),
      }),
      members: z.array(personShape),
      more: z.boolean().describe(`Whether it has more than the ${MEMBERS_SHOWN} members shown.`),
    },
    run: async ({ auth }, input) => {
      const row = await segments.find(auth.workspaceId, input.id);
      if (!row) throw new Refusal('not_found', 'No segment has that id: list them with list_segments.');
      const [count, page] = await Promise.all([
        segments.count(auth.workspaceId, row.id),
        segments.members(auth.workspaceId, row.id, MEMBERS_SHOWN),
      ]);
      const fill = row.filling ? { done: row.fill_done, total: row.fill_total } : null;
      return {
        segment: { id: row.id, name: row.name, definition: row.definition, count, filling: row.filling, fill },
        members: page.edges.map((e) => summary(e.node)),
        more: page.pageInfo.hasNextPage,
      };
    },
  });
}
