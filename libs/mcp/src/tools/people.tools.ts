// find_people, get_person and list_lists: the same services as the GraphQL people, person and lists fields.
import { z } from 'zod';
import { Refusal } from '@app/platform';
import type { TimelineRow, TimelineService } from '@app/events';
import type { ListsService, PeopleQueryService, PersonDataService, PersonRow, SubscriptionRead } from '@app/people';
import { defineTool } from './tool';

const FIND_AT_MOST = 50;
const TIMELINE_ROWS = 50;

/** A person as find_people answers them (get_segment's members too). */
export const personShape = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  stage: z.string().nullable(),
  engaged: z.boolean(),
  createdAt: z.string(),
});

export function summary(row: PersonRow): z.infer<typeof personShape> {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    stage: row.stage,
    engaged: !!row.engaged_at,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function subscriptionView(s: SubscriptionRead) {
  return {
    list: { address: s.address, name: s.name },
    status: s.status,
    consentText: s.consent_text,
    consentIp: s.consent_ip,
    grantedAt: new Date(s.granted_at).toISOString(),
    sourceLabel: s.source_label,
    withdrawnAt: s.withdrawn_at ? new Date(s.withdrawn_at).toISOString() : null,
    withdrawnVia: s.withdrawn_via,
  };
}

function timelineView(r: TimelineRow) {
  return {
    id: r.id,
    type: r.type,
    occurredAt: new Date(r.occurred_at).toISOString(),
    value: r.value === null ? null : Number(r.value),
    properties: r.properties,
    detail: r.detail,
  };
}

export function peopleTools(
  people: PeopleQueryService,
  timeline: TimelineService,
  lists: ListsService,
  personData: PersonDataService,
) {
  return [findPeopleTool(people), getPersonTool(people, timeline), listListsTool(lists), exportPersonTool(personData)];
}

function findPeopleTool(people: PeopleQueryService) {
  return defineTool({
    name: 'find_people',
    readOnly: true,
    description:
      'Find people in the workspace, newest first, at most 50. Filter by email, name (part of it, any case), ' +
      'anon_id, account_id, lifecycle stage (downloader, activated, account, trial, purchaser, repeat, ' +
      'churned) or list (a list address: people subscribed to it now). Filters combine with AND; with none, ' +
      'the newest people. Read one in full with get_person.',
    input: {
      email: z.string().optional(),
      name: z.string().optional(),
      anon_id: z.string().optional(),
      account_id: z.string().optional(),
      stage: z.string().optional(),
      list: z.string().optional().describe('A list address, as list_lists shows it.'),
      limit: z.number().int().optional().describe(`1 to ${FIND_AT_MOST}; default ${FIND_AT_MOST}.`),
    },
    output: { people: z.array(personShape) },
    run: async ({ auth }, input) => {
      const limit = input.limit ?? FIND_AT_MOST;
      if (limit < 1 || limit > FIND_AT_MOST) throw new Refusal('invalid_field', `limit must be 1 to ${FIND_AT_MOST}.`);
      const filter = {
        email: input.email,
        name: input.name,
        anonId: input.anon_id,
        accountId: input.account_id,
        stage: input.stage,
        list: input.list,
      };
      const page = await people.find(auth.workspaceId, { filter, first: limit });
      return { people: page.edges.map((edge) => summary(edge.node)) };
    },
  });
}

function getPersonTool(people: PeopleQueryService, timeline: TimelineService) {
  return defineTool({
    name: 'get_person',
    readOnly: true,
    description:
      'Read one person by record id or email: name, email, lifecycle stage, first touch (source, medium, ' +
      'campaign), identities, list subscriptions with the exact consent words they agreed to, and the last 50 ' +
      'timeline rows, newest first.',
    input: {
      id: z.string().optional().describe('The record id (per_…).'),
      email: z.string().optional(),
    },
    output: {
      person: personShape.extend({
        os: z.string().nullable(),
        purchases: z.number(),
        fields: z.record(z.string(), z.unknown()),
        firstTouch: z.record(z.string(), z.unknown()).nullable(),
      }),
      identities: z.array(z.object({ kind: z.string(), value: z.string() })),
      subscriptions: z.array(z.record(z.string(), z.unknown())),
      timeline: z.array(z.record(z.string(), z.unknown())),
    },
    run: async ({ auth }, input) => {
      const row = await people.get(auth.workspaceId, { id: input.id, email: input.email });
      if (!row)
        throw new Refusal(
          'no_such_person',
          'No record has that address or id: check it, or find people with find_people.',
        );
      const [identities, subscriptions, rows] = await Promise.all([
        people.identitiesOf(auth.workspaceId, [row.id]),
        people.subscriptionsOf(auth.workspaceId, [row.id]),
        timeline.rowsOf(auth.workspaceId, [row.id], { first: TIMELINE_ROWS }),
      ]);
      return {
        person: {
          ...summary(row),
          os: row.os,
          purchases: row.purchases,
          fields: row.fields,
          firstTouch: row.first_touch,
        },
        identities: identities.map(({ kind, value }) => ({ kind, value })),
        subscriptions: subscriptions.map(subscriptionView),
        timeline: timeline.page(rows, { first: TIMELINE_ROWS }).edges.map(({ node }) => timelineView(node)),
      };
    },
  });
}

function listListsTool(lists: ListsService) {
  return defineTool({
    name: 'list_lists',
    readOnly: true,
    description: "The workspace's mailing lists: each list's address (what a subscribe post names) and name.",
    input: {},
    output: { lists: z.array(z.object({ id: z.string(), address: z.string(), name: z.string() })) },
    run: async ({ auth }) => ({
      lists: (await lists.list(auth.workspaceId)).map(({ id, address, name }) => ({ id, address, name })),
    }),
  });
}

/** The export, as GraphQL personExport answers it. Erasure is deliberately not a tool. */
function exportPersonTool(personData: PersonDataService) {
  return defineTool({
    name: 'export_person',
    description:
      'Everything held about one person, by record id or email, for a data request (GDPR articles 15 and 20): ' +
      'record, identities, subscriptions with consent words, the whole timeline, messages with bodies, ' +
      'automation runs and the webhook deliveries that named them. At most 10,000 rows; past that it refuses ' +
      'and names the download.',
    input: { person: z.string().describe('Record id (per_…) or email.') },
    output: { export: z.record(z.string(), z.unknown()) },
    run: async ({ auth }, input) => ({ export: await personData.exportDocument(auth.workspaceId, input.person) }),
  });
}
