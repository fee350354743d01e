// Live segments as owners and admins save them (docs/graphql.md#segments): a name of 1 to 80 characters, unique in
// the workspace; a definition of the grammar whose custom event names the workspace has seen and whose lists
// exist; at most SEGMENTS_PER_WORKSPACE. A new definition fills the segment again; a rename does not
// (docs/decisions.md#segments-fifty-per-workspace-and-a-rename-keeps-the-fill).
import { Injectable } from '@nestjs/common';
import { decodeCursor, pageOf, pageSize } from '@app/edge';
import { PeopleQueryService, PeopleReadRepository, type PersonCondition, type PersonRow } from '@app/people';
import { newId, Refusal } from '@app/platform';
import { isBuiltInEvent } from '../domain';
import { TimelineRepository } from '../timeline.repository';
import { definitionNames, parseDefinition } from './domain/definition';
import { pathOf } from './domain/definition-path';
import { SegmentRow, SegmentsRepository } from './segments.repository';

export const SEGMENTS_PER_WORKSPACE = 50;
export const SEGMENT_NAME_MAX = 80;

export interface SegmentInput {
  name?: string | null;
  definition?: unknown;
  announceFill?: boolean | null;
}

export interface MembersPage {
  edges: Array<{ cursor: string; node: PersonRow }>;
  pageInfo: { hasNextPage: boolean; endCursor?: string };
}

function checkedName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name || name.length > SEGMENT_NAME_MAX)
    throw new Refusal('invalid_field', `name must be 1 to ${SEGMENT_NAME_MAX} characters.`, { field: 'name' });
  return name;
}

const notFound = (id: string): never => {
  throw new Refusal('not_found', `No segment has id "${String(id).slice(0, 80)}": list them with segments.`);
};

@Injectable()
export class SegmentsService {
  constructor(
    private readonly segments: SegmentsRepository,
    private readonly timeline: TimelineRepository,
    private readonly lists: PeopleReadRepository,
    private readonly people: PeopleQueryService,
  ) {}

  async create(workspaceId: string, input: SegmentInput): Promise<SegmentRow> {
    const name = checkedName(input.name);
    const definition = await this.checkedDefinition(workspaceId, input.definition);
    return this.segments.transaction(async (m) => {
      await this.segments.raiseRevision(m, workspaceId);
      const tally = await this.segments.tally(m, workspaceId, name);
      if (tally.segments >= SEGMENTS_PER_WORKSPACE)
        throw new Refusal(
          'limit_reached',
          `A workspace holds at most ${SEGMENTS_PER_WORKSPACE} segments: delete one you no longer use first.`,
        );
      if (tally.named) throw this.nameTaken(name);
      const row = { workspaceId, id: newId('seg'), name, definition, announceFill: input.announceFill ?? false };
      return this.segments.insert(m, row);
    });
  }

  /** The name and the definition, each left as it is when absent; a new definition fills the segment again. */
  async update(workspaceId: string, id: string, input: SegmentInput): Promise<SegmentRow> {
    const name = input.name == null ? undefined : checkedName(input.name);
    const definition =
      input.definition == null ? undefined : await this.checkedDefinition(workspaceId, input.definition);
    return this.segments.transaction(async (m) => {
      await this.segments.raiseRevision(m, workspaceId);
      if (name !== undefined && (await this.segments.tally(m, workspaceId, name, id)).named) throw this.nameTaken(name);
      return (await this.segments.update(m, workspaceId, id, { name, definition })) ?? notFound(id);
    });
  }

  /** Its members go with it; automations naming it start no more runs. */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    return this.segments.transaction(async (m) => {
      await this.segments.raiseRevision(m, workspaceId);
      return (await this.segments.delete(m, workspaceId, id)) || notFound(id);
    });
  }

  /** Oldest first. */
  list(workspaceId: string): Promise<SegmentRow[]> {
    return this.segments.list(workspaceId);
  }

  /** null for an id not the workspace's. */
  find(workspaceId: string, id: string): Promise<SegmentRow | null> {
    return this.segments.find(workspaceId, id);
  }

  async count(workspaceId: string, id: string): Promise<number> {
    const [row] = await this.segments.counts(workspaceId, [id]);
    return row?.count ?? notFound(id);
  }

  /** Each segment's count, for many segments at once (a segment of another workspace counts nothing). */
  counts(workspaceId: string, ids: readonly string[]) {
    return this.segments.counts(workspaceId, ids);
  }

  /** Its members by record id: first 1 to 100 (default 50), after an endCursor of the page before. */
  async members(workspaceId: string, id: string, first?: number | null, after?: string | null): Promise<MembersPage> {
    const size = pageSize(first);
    const from = decodeCursor(after)?.id ?? null;
    await this.existing(workspaceId, id);
    const members = await this.segments.members(workspaceId, id, size + 1, from);
    const shown = members.slice(0, size);
    const people = new Map(
      (
        await this.people.byIds(
          workspaceId,
          shown.map((r) => r.person_id),
        )
      ).map((p) => [p.id, p]),
    );
    // Ordered by id alone: the position's time part is always 0.
    const page = pageOf(members, size, (r) => ({ atMicros: '0', id: r.person_id }));
    const edges = page.edges.flatMap((e) => {
      const node = people.get(e.node.person_id);
      return node ? [{ cursor: e.cursor, node }] : [];
    });
    return { edges, pageInfo: page.pageInfo };
  }

  /** The segments (id and name) the person is in, by name. */
  async ofPerson(workspaceId: string, personId: string): Promise<Array<{ id: string; name: string }>> {
    return (await this.segments.ofPeople(workspaceId, [personId])).map(({ id, name }) => ({ id, name }));
  }

  ofPeople(workspaceId: string, personIds: readonly string[]) {
    return this.segments.ofPeople(workspaceId, personIds);
  }

  /** The people filter "in the segment" (PersonFilter.among). */
  memberCondition(workspaceId: string, id: string): PersonCondition {
    return this.segments.memberCondition(workspaceId, id);
  }

  /** memberCondition, refused not_found for a segment not the workspace's. */
  async inSegment(workspaceId: string, id: string): Promise<PersonCondition> {
    await this.existing(workspaceId, id);
    return this.memberCondition(workspaceId, id);
  }

  private async existing(workspaceId: string, id: string): Promise<SegmentRow> {
    return (await this.segments.find(workspaceId, id)) ?? notFound(id);
  }

  /** The grammar's shape first, then the workspace: custom event names it has seen, lists it has. */
  private async checkedDefinition(workspaceId: string, raw: unknown): Promise<unknown> {
    const parsed = parseDefinition(raw);
    if (parsed instanceof Refusal) throw parsed;
    const names = definitionNames(parsed);
    const custom = names.events.filter((e) => !isBuiltInEvent(e));
    if (custom.length) {
      const seen = new Set((await this.timeline.seenNames(workspaceId)).map((n) => n.name));
      const unseen = custom.find((e) => !seen.has(e));
      if (unseen !== undefined) {
        const field = pathOf(raw, 'event', unseen) ?? 'definition';
        throw new Refusal(
          'unknown_event',
          `${field}: the workspace has not seen an event named "${unseen.slice(0, 60)}" yet: post one first, ` +
            `or choose a built-in name.`,
          { field },
        );
      }
    }
    if (names.lists.length) {
      const addresses = new Set((await this.lists.lists(workspaceId)).map((l) => l.address));
      const missing = names.lists.find((l) => !addresses.has(l));
      if (missing !== undefined) {
        const field = pathOf(raw, 'list', missing) ?? 'definition';
        throw new Refusal(
          'unknown_list',
          `${field}: no list has the address "${missing.slice(0, 80)}": create it first.`,
          { field },
        );
      }
    }
    return raw;
  }

  private nameTaken(name: string): Refusal {
    return new Refusal('conflict', `A segment named "${name}" already exists: choose another name.`, {
      field: 'name',
    });
  }
}
