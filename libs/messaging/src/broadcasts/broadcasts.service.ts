// Broadcasts as owners and admins make them (docs/graphql.md#broadcasts): a name, one audience (a list's address or
// a segment's id) and the mail (a template, or a subject and a body, with a one-to-one send's markup and limits).
// The moves between states are BroadcastMovesService's.
import { Injectable } from '@nestjs/common';
import { decodeCursor, pageOf, pageSize } from '@app/edge';
import { SegmentsService } from '@app/events';
import { PeopleReadRepository } from '@app/people';
import { newId, Refusal } from '@app/platform';
import { WorkspacesService } from '@app/workspaces';
import { MessageRenderer } from '../render/message-renderer';
import { TemplatesRepository } from '../templates.repository';
import type { BroadcastLetter } from './broadcast-mail';
import { BroadcastRecipientsRepository, RecipientState } from './broadcast-recipients.repository';
import { BroadcastRow, BroadcastsRepository, BroadcastWrite } from './broadcasts.repository';
import { BroadcastInput, moveRefusal, parseBroadcast } from './domain/broadcast';

export const notFound = (id: string): never => {
  throw new Refusal('not_found', `No broadcast has id "${String(id).slice(0, 80)}": list them with broadcasts.`);
};

export interface BroadcastTally {
  queued: number;
  sending: number;
  sent: number;
  failed: number;
  skipped: number;
  cancelled: number;
  skippedBy: Array<{ reason: string; count: number }>;
}

@Injectable()
export class BroadcastsService {
  constructor(
    private readonly broadcasts: BroadcastsRepository,
    private readonly recipients: BroadcastRecipientsRepository,
    private readonly templates: TemplatesRepository,
    private readonly people: PeopleReadRepository,
    private readonly segments: SegmentsService,
    private readonly workspaces: WorkspacesService,
    private readonly renderer: MessageRenderer,
  ) {}

  async create(workspaceId: string, input: BroadcastInput): Promise<BroadcastRow> {
    return this.broadcasts.insert(workspaceId, newId('bc'), await this.checked(workspaceId, input));
  }

  /** A draft's or a scheduled broadcast's content: each field absent stays; naming one audience drops the other. */
  async update(workspaceId: string, id: string, input: BroadcastInput): Promise<BroadcastRow> {
    const current = (await this.broadcasts.find(workspaceId, id)) ?? notFound(id);
    const keepAudience = !input.list && !input.segment;
    const merged: BroadcastInput = {
      name: input.name ?? current.name,
      list: keepAudience ? await this.listAddress(current) : input.list,
      segment: keepAudience ? current.segment_id : input.segment,
      template: input.template ?? current.template_id,
      subject: input.subject ?? current.subject,
      body: input.body ?? current.body,
    };
    const write = await this.checked(workspaceId, merged);
    return this.broadcasts.transaction(async (m) => {
      const row = (await this.broadcasts.lock(m, workspaceId, id)) ?? notFound(id);
      const refused = moveRefusal(row.state, 'update');
      if (refused) throw refused;
      return this.broadcasts.update(m, workspaceId, id, write);
    });
  }

  find(workspaceId: string, id: string): Promise<BroadcastRow | null> {
    return this.broadcasts.find(workspaceId, id);
  }

  /** Newest first; first 1 to 100 (default 50), after an endCursor of the page before. */
  async page(workspaceId: string, first?: number | null, after?: string | null) {
    const size = pageSize(first);
    const rows = await this.broadcasts.page(workspaceId, size + 1, decodeCursor(after)?.id ?? null);
    return pageOf(rows, size, (row) => ({ atMicros: '0', id: row.id }));
  }

  /** Each broadcast's recipients by state, and the skipped by reason. */
  async tallies(workspaceId: string, ids: readonly string[]): Promise<Map<string, BroadcastTally>> {
    const tallies = new Map<string, BroadcastTally>();
    for (const row of await this.recipients.tallies(workspaceId, ids)) {
      let tally = tallies.get(row.broadcast_id);
      if (!tally) {
        tally = { queued: 0, sending: 0, sent: 0, failed: 0, skipped: 0, cancelled: 0, skippedBy: [] };
        tallies.set(row.broadcast_id, tally);
      }
      tally[row.state] += row.n;
      if (row.state === 'skipped') tally.skippedBy.push({ reason: row.reason ?? 'unknown', count: row.n });
    }
    return tallies;
  }

  /** Each broadcast's recipients counted by state, the skipped by reason too: one row a pair. */
  tallyRows(workspaceId: string, ids: readonly string[]) {
    return this.recipients.tallies(workspaceId, ids);
  }

  /** How many of each broadcast's emails were opened and clicked, by the email door's statuses. */
  engagement(workspaceId: string, ids: readonly string[]) {
    return this.broadcasts.broadcastEngagement(workspaceId, ids);
  }

  recipientsPage(
    workspaceId: string,
    broadcastId: string,
    f: { state?: RecipientState | null; after?: string | null; first: number },
  ) {
    return this.recipients.page(workspaceId, broadcastId, { state: f.state, after: f.after ?? null, limit: f.first });
  }

  /** The list's address, for the GraphQL field and the List-Id. */
  async listAddress(row: Pick<BroadcastRow, 'workspace_id' | 'list_id'>): Promise<string | null> {
    if (!row.list_id) return null;
    return (await this.people.lists(row.workspace_id)).find((l) => l.id === row.list_id)?.address ?? null;
  }

  /** What every email of the broadcast shares, the template read now; refused naming postalAddress until it is set. */
  async letterOf(row: BroadcastRow): Promise<BroadcastLetter> {
    const workspace = await this.workspaces.get(row.workspace_id);
    if (!workspace.postalAddress)
      throw new Refusal(
        'conflict',
        "Set the workspace's postalAddress first (updateWorkspaceSettings): every broadcast's footer carries it.",
        { field: 'postalAddress' },
      );
    let { subject, body } = row;
    if (row.template_id) {
      const template = await this.templates.byIdOrName(row.workspace_id, row.template_id);
      if (!template) throw unknownTemplate(row.template_id);
      subject ??= template.subject;
      body ??= template.body;
    }
    const list = row.list_id
      ? (await this.people.lists(row.workspace_id)).find((l) => l.id === row.list_id)
      : undefined;
    if (row.list_id && !list)
      throw new Refusal('unknown_list', 'The list of this broadcast no longer exists: choose another audience.');
    return {
      workspaceId: row.workspace_id,
      workspaceSlug: workspace.slug,
      workspaceName: workspace.name,
      postalAddress: workspace.postalAddress,
      broadcastId: row.id,
      subject: subject!,
      body: body!,
      audience: list
        ? { kind: 'list', listId: list.id, address: list.address, name: list.name }
        : { kind: 'segment', id: row.segment_id! },
    };
  }

  /** The input checked against the workspace: its list or segment, its template, Liquid that parses. */
  private async checked(workspaceId: string, input: BroadcastInput): Promise<BroadcastWrite> {
    const content = parseBroadcast(input);
    if (content instanceof Refusal) throw content;
    let listId: string | null = null;
    let segmentId: string | null = null;
    if (content.audience.kind === 'list') {
      const address = content.audience.address;
      const list = (await this.people.lists(workspaceId)).find((l) => l.address === address);
      if (!list)
        throw new Refusal('unknown_list', `No list has the address "${address.slice(0, 80)}": create it first.`, {
          field: 'list',
        });
      listId = list.id;
    } else {
      const segment = await this.segments.find(workspaceId, content.audience.id);
      if (!segment)
        throw new Refusal(
          'not_found',
          `No segment has id "${content.audience.id.slice(0, 80)}": list them with segments.`,
          {
            field: 'segment',
          },
        );
      segmentId = segment.id;
    }
    let templateId: string | null = null;
    const { subject, body } = content;
    if (content.template) {
      const template = await this.templates.byIdOrName(workspaceId, content.template);
      if (!template) throw unknownTemplate(content.template);
      templateId = template.id;
      await this.renderer.validate(workspaceId, subject ?? template.subject, body ?? template.body);
    } else await this.renderer.validate(workspaceId, subject!, body!);
    return { name: content.name, listId, segmentId, templateId, subject, body };
  }
}

function unknownTemplate(name: string): Refusal {
  return new Refusal(
    'unknown_template',
    `No template has the name or id "${name.slice(0, 80)}": create it first or check the name.`,
    { field: 'template' },
  );
}
