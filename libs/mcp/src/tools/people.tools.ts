// get_person and list_lists: the same reads as the GraphQL person and lists fields.
import { z } from 'zod';
import { Refusal } from '@app/core';
import type { TimelineRepository } from '@app/events';
import type { PeopleReadRepository } from '@app/people';
import { defineTool } from './tool';

const TIMELINE_ROWS = 50;

export function peopleTools(read: PeopleReadRepository, timeline: TimelineRepository) {
  const getPerson = defineTool({
    name: 'get_person',
    description:
      "Read one person by record id or email: name, email, lifecycle stage, first touch (source, medium, campaign), identities, list subscriptions with the exact consent words they agreed to, and the last 50 timeline rows, newest first.",
    input: {
      id: z.string().optional().describe('The record id (per_…).'),
      email: z.string().optional(),
    },
    output: {
      person: z.object({
        id: z.string(),
        name: z.string().nullable(),
        email: z.string().nullable(),
        stage: z.string().nullable(),
        os: z.string().nullable(),
        engaged: z.boolean(),
        purchases: z.number(),
        fields: z.record(z.string(), z.unknown()),
        firstTouch: z.record(z.string(), z.unknown()).nullable(),
        createdAt: z.string(),
      }),
      identities: z.array(z.object({ kind: z.string(), value: z.string() })),
      subscriptions: z.array(z.record(z.string(), z.unknown())),
      timeline: z.array(z.record(z.string(), z.unknown())),
    },
    run: async ({ auth }, input) => {
      if (!input.id && !input.email) throw new Refusal('invalid_field', 'Name the person with id or email.');
      const row = input.id ? await read.byId(auth.workspaceId, input.id) : await read.byEmail(auth.workspaceId, input.email!);
      if (!row) throw new Refusal('no_such_person', 'No record has that address or id: check it, or find people with find_people.');
      const [identities, subscriptions, rows] = await Promise.all([
        read.identitiesOf(auth.workspaceId, [row.id]),
        read.subscriptionsOf(auth.workspaceId, [row.id]),
        timeline.timeline(auth.workspaceId, row.id, TIMELINE_ROWS),
      ]);
      return {
        person: {
          id: row.id,
          name: row.name,
          email: row.email,
          stage: row.stage,
          os: row.os,
          engaged: !!row.engaged_at,
          purchases: row.purchases,
          fields: row.fields,
          firstTouch: row.first_touch,
          createdAt: new Date(row.created_at).toISOString(),
        },
        identities: identities.map(({ kind, value }) => ({ kind, value })),
        subscriptions: subscriptions.map((s) => ({
          list: { address: s.address, name: s.name },
          status: s.status,
          consentText: s.consent_text,
          consentIp: s.consent_ip,
          grantedAt: new Date(s.granted_at).toISOString(),
          sourceLabel: s.source_label,
        })),
        timeline: rows.map((r) => ({
          id: r.id,
          type: r.type,
          occurredAt: new Date(r.occurred_at).toISOString(),
          value: r.value === null ? null : Number(r.value),
          properties: r.properties,
          detail: r.detail,
        })),
      };
    },
  });

  const listLists = defineTool({
    name: 'list_lists',
    description: "The workspace's mailing lists: each list's address (what a subscribe post names) and name.",
    input: {},
    output: { lists: z.array(z.object({ id: z.string(), address: z.string(), name: z.string() })) },
    run: async ({ auth }) => ({ lists: (await read.lists(auth.workspaceId)).map(({ id, address, name }) => ({ id, address, name })) }),
  });

  return [getPerson, listLists];
}
