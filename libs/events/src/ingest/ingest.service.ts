// interface.md "Events endpoint": parses each item, applies the batch in one transaction, and, when
// that transaction fails unexpectedly, applies each item alone so one bad item keeps the others.
import { Injectable, Logger } from '@nestjs/common';
import { HEARTBEAT_ANSWER, OutboxWriter, Refusal, WorkspaceEntity } from '@app/core';
import { PeopleRepository } from '@app/people';
import { Command, EventCommand, isHoneypot, parseItem, PublicAction, publicEventRefusal, publicItem, USUAL_STATUS } from '../domain';
import { TimelineRepository } from '../timeline.repository';
import { IngestUnit, ItemResult, Success } from './ingest-unit';
import { IngestRepository } from './ingest.repository';

export interface IngestOptions {
  /** The public door: consent.text required, only built-in event names. */
  publicDoor: boolean;
  /** The public door's action: each has its own door and per-IP limit, so an item of another kind is refused. */
  door?: Command['kind'];
}

const SERVER_ERROR = 'The service could not finish; nothing was changed; send it again.';
const MAX_IN_FLIGHT = 4;
const MAX_SHARED_ITEMS = 100;

interface Lane {
  inFlight: number;
  pending: Array<{ workspace: WorkspaceEntity; command: Command; resolve: (r: ItemResult) => void; reject: (e: unknown) => void }>;
}

@Injectable()
export class IngestService {
  private readonly logger = new Logger('Ingest');
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly people: PeopleRepository,
    private readonly timeline: TimelineRepository,
    private readonly store: IngestRepository,
    private readonly outbox: OutboxWriter,
  ) {}

  /** Parses one raw item, with the public door's extra rules. */
  parse(raw: unknown, options: IngestOptions, now = new Date()): Command | Refusal {
    const command = parseItem(raw, { requireConsentText: options.publicDoor, now, only: options.door });
    if (options.publicDoor && !(command instanceof Refusal) && command.kind === 'event') return publicEventRefusal(command.type) ?? command;
    return command;
  }

  /** One post to a public website door (interface.md "Public website endpoints"). */
  async ingestPublic(workspace: WorkspaceEntity, action: PublicAction, body: unknown, visitorIp: string | undefined): Promise<ItemResult> {
    const item = publicItem(action, body, visitorIp);
    if (item instanceof Refusal) return item;
    if (isHoneypot(item)) return { ok: true, status: USUAL_STATUS[action], [HEARTBEAT_ANSWER]: 'honeypot' } as Success;
    const [result] = await this.ingest(workspace, [item], { publicDoor: true, door: action });
    return result;
  }

  /**
   * Items of one post. A single item joins the workspace's shared transaction (see enqueue); a batch
   * is its own transaction.
   */
  async ingest(workspace: WorkspaceEntity, raws: unknown[], options: IngestOptions): Promise<ItemResult[]> {
    const now = new Date();
    const results: Array<ItemResult | undefined> = raws.map(() => undefined);
    const work: Array<{ index: number; command: Command }> = [];
    raws.forEach((raw, index) => {
      const command = this.parse(raw, options, now);
      if (command instanceof Refusal) results[index] = command;
      else if (isExpired(command, now)) results[index] = { ok: true, status: 'expired' }; // writes nothing, not even the person
      else work.push({ index, command });
    });
    if (work.length === 1 && raws.length === 1) {
      results[work[0].index] = await this.enqueue(workspace, work[0].command);
    } else if (work.length) {
      const applied = await this.applyIsolated(workspace, work.map((w) => w.command));
      work.forEach((w, i) => (results[w.index] = applied[i]));
    }
    return results as ItemResult[];
  }

  /**
   * Concurrent single posts to one workspace share a transaction: each transaction costs the same few
   * round trips whether it carries one item or a hundred, so under load this multiplies throughput
   * and adds no wait when idle (a post starts a transaction at once while fewer than MAX_IN_FLIGHT run).
   */
  private enqueue(workspace: WorkspaceEntity, command: Command): Promise<ItemResult> {
    let lane = this.lanes.get(workspace.id);
    if (!lane) this.lanes.set(workspace.id, (lane = { inFlight: 0, pending: [] }));
    return new Promise((resolve, reject) => {
      lane!.pending.push({ workspace, command, resolve, reject });
      this.pump(workspace.id, lane!);
    });
  }

  private pump(workspaceId: string, lane: Lane): void {
    while (lane.inFlight < MAX_IN_FLIGHT && lane.pending.length) {
      const taken = lane.pending.splice(0, MAX_SHARED_ITEMS);
      lane.inFlight++;
      this.applyIsolated(taken[taken.length - 1].workspace, taken.map((t) => t.command))
        .then(
          (results) => taken.forEach((t, i) => t.resolve(results[i])),
          (error) => taken.forEach((t) => t.reject(error)),
        )
        .finally(() => {
          lane.inFlight--;
          if (lane.inFlight === 0 && lane.pending.length === 0) this.lanes.delete(workspaceId);
          else this.pump(workspaceId, lane);
        });
    }
  }

  /** One transaction for all; when it fails unexpectedly, each item alone, so one bad item keeps the others. */
  private async applyIsolated(workspace: WorkspaceEntity, commands: Command[]): Promise<ItemResult[]> {
    try {
      return await this.applyAll(workspace, commands);
    } catch (error) {
      if (commands.length === 1) throw error;
      this.logger.warn(`shared transaction failed, applying items one by one: ${(error as Error).message}`);
      const results: ItemResult[] = [];
      for (const command of commands) {
        results.push(
          await this.applyAll(workspace, [command]).then(
            (applied) => applied[0],
            (itemError: Error) => {
              this.logger.error(`item failed: ${itemError.message}`);
              return new Refusal('server_error', SERVER_ERROR);
            },
          ),
        );
      }
      return results;
    }
  }

  private async applyAll(workspace: WorkspaceEntity, commands: Command[]): Promise<ItemResult[]> {
    const now = new Date();
    const results = await this.people.transaction(async (m) => {
      const unit = new IngestUnit(m, workspace, this.people, this.timeline, this.store, now);
      await unit.prepare(commands);
      const applied: ItemResult[] = [];
      for (const command of commands) applied.push(await unit.apply(command));
      await unit.flush();
      return applied;
    });
    this.outbox.kick();
    return results;
  }
}

function isExpired(command: Command, now: Date): command is EventCommand {
  return command.kind === 'event' && !!command.expiresAt && command.expiresAt.getTime() <= now.getTime();
}
