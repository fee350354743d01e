// docs/rest.md#events: parses each item, applies the batch in one transaction (shared with
// other posts to the workspace under load), and, when that transaction fails unexpectedly, applies each
// post alone, and a batch's items each alone, so one bad item keeps the others.
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CLOCK,
  type Clock,
  commitWithNext,
  GroupCommitLanes,
  isUnavailable,
  Refusal,
  runIsolated,
  SYSTEM_CLOCK,
} from '@app/platform';
import { HEARTBEAT_ANSWER } from '@app/edge';
import { isKeyRefused, KeyRecheck, WorkspaceEntity } from '@app/workspaces';
import { OutboxWriter } from '@app/outbox';
import {
  isKeyRace,
  isSuppressedRace,
  keyString,
  PeopleRepository,
  SubscriptionsRepository,
  SuppressionList,
} from '@app/people';
import {
  Command,
  EventCommand,
  isHistory,
  isHoneypot,
  parseItem,
  PublicAction,
  publicEventRefusal,
  publicItem,
  USUAL_STATUS,
} from '../domain';
import { IngestUnit, ItemResult, Success } from './ingest-unit';
import { IngestRepository } from './ingest.repository';
import { NamedTouch, TouchKeys } from './touch-keys';
import { SegmentMembership } from '../segments/membership.service';
import { isSegmentsChanged } from '../segments/membership.repository';

export interface IngestOptions {
  /** The public door: consent.text required, only built-in event names. */
  publicDoor: boolean;
  /** The public door's action: each has its own door and per-IP limit, so an item of another kind is refused. */
  door?: Command['kind'];
  /**
   * A key taken as live from memory (AuthContext.recheck): checked by the write, or verified when nothing is written.
   */
  recheck?: KeyRecheck;
  /**
   * Segment's /v1/import: every item is history, whatever its time
   * (docs/decisions.md#history-starts-no-automation).
   */
  imported?: boolean;
}

/**
 * A command, the key to check again in the statement that writes it (if any), and whether it is history (starts no
 * automation).
 */
interface Work {
  command: Command;
  keyId?: string;
  history?: boolean;
}

const SERVER_ERROR = 'The service could not finish; nothing was changed; send it again.';
const MAX_IN_FLIGHT = 1;
const MAX_BATCHES_IN_FLIGHT = 2;
const MAX_SHARED_ITEMS = 100;
const MAX_SHARED_BATCHES = 4;
const KEY_RACE_ATTEMPTS = 5;

@Injectable()
export class IngestService {
  private readonly logger = new Logger('Ingest');
  /**
   * Concurrent single posts to one workspace share a transaction: each transaction costs the same few
   * round trips whether it carries one item or a hundred, so under load this multiplies throughput
   * and adds no wait when idle (a post starts a transaction at once while none runs). One transaction in
   * flight per workspace and process: posts that arrive while it runs make the next one, so
   * under load each carries more items; measured against 2 and 4 in flight, it cost 25-30% less CPU per
   * event with a lower p99 (bench/RESULTS.md).
   */
  private readonly lanes = new GroupCommitLanes<Work & { workspace: WorkspaceEntity }, ItemResult>(
    (_workspaceId, items) => this.applyAll(items[items.length - 1].workspace, items),
    MAX_SHARED_ITEMS,
    MAX_IN_FLIGHT,
  );

  /**
   * Concurrent batches to one workspace share transactions the same way: up to MAX_SHARED_BATCHES (400
   * items) a transaction, since a transaction's statements cost a part that does not grow with its items.
   * Measured against each batch in its own transaction (16 at once): about a quarter less CPU per event,
   * 10% less throughput, a lower p99 (bench/RESULTS.md). A second transaction runs beside the
   * first (the api's work on one overlaps PostgreSQL's on the other) only once the first has
   * locked the people it names (its load returned), and only when none of its keys is one of the first's:
   * so a client's batches naming one person are applied in the order they arrived (a purchase never before
   * the signup sent ahead of it: test/segment.e2e-spec.ts), by the keys here and, for a person named by
   * another of their keys, by the row lock the first holds. A batch alone, or one whose shared transaction
   * failed, is applied as before (applyIsolated).
   */
  private readonly batchLanes = new GroupCommitLanes<{ workspace: WorkspaceEntity; work: Work[] }, ItemResult[]>(
    (_workspaceId, batches, opened) => this.applyBatches(batches, opened),
    MAX_SHARED_BATCHES,
    MAX_BATCHES_IN_FLIGHT,
    { keysOf: (batch) => batch.work.flatMap((w) => w.command.keys.map(keyString)) },
  );

  /** First-touch keys, and which this process has seen named (docs/decisions.md#charts-from-rollups). */
  private readonly touches = new TouchKeys();

  constructor(
    private readonly people: PeopleRepository,
    private readonly store: IngestRepository,
    private readonly outbox: OutboxWriter,
    private readonly suppressions: SuppressionList,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly segments: SegmentMembership,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /** Parses one raw item, with the public door's extra rules. */
  parse(raw: unknown, options: IngestOptions, now = new Date()): Command | Refusal {
    const command = parseItem(raw, { requireConsentText: options.publicDoor, now, only: options.door });
    if (options.publicDoor && !(command instanceof Refusal) && command.kind === 'event')
      return publicEventRefusal(command.type) ?? command;
    return command;
  }

  /** One post to a public website door (docs/rest.md#website-endpoints). */
  async ingestPublic(
    workspace: WorkspaceEntity,
    action: PublicAction,
    body: unknown,
    visitorIp: string | undefined,
  ): Promise<ItemResult> {
    const item = publicItem(action, body, visitorIp);
    if (item instanceof Refusal) return item;
    if (isHoneypot(item)) return { ok: true, status: USUAL_STATUS[action], [HEARTBEAT_ANSWER]: 'honeypot' } as Success;
    const [result] = await this.ingest(workspace, [item], { publicDoor: true, door: action });
    return result;
  }

  /**
   * Items of one post. A single item joins the workspace's shared transaction (see lanes); a batch
   * joins a transaction shared with other batches (batchLanes).
   */
  async ingest(workspace: WorkspaceEntity, raws: unknown[], options: IngestOptions): Promise<ItemResult[]> {
    const now = new Date(this.clock.now()); // the arrival
    const results: Array<ItemResult | undefined> = raws.map(() => undefined);
    const work: Array<{ index: number; command: Command; history: boolean }> = [];
    raws.forEach((raw, index) => {
      const command = this.parse(raw, options, now);
      if (command instanceof Refusal) results[index] = command;
      else if (isExpired(command, now))
        results[index] = { ok: true, status: 'expired' }; // writes nothing, not even the person
      else work.push({ index, command, history: historyOf(command, options, now, workspace) });
    });
    const { recheck } = options;
    const keyId = recheck?.keyId;
    try {
      if (work.length === 1 && raws.length === 1) {
        const [{ index, command, history }] = work;
        results[index] = await this.lanes.submit(workspace.id, { workspace, command, keyId, history });
      } else if (work.length) {
        const applied = await this.batchLanes.submit(workspace.id, {
          workspace,
          work: work.map((w) => ({ command: w.command, keyId, history: w.history })),
        });
        work.forEach((w, i) => (results[w.index] = applied[i]));
      } else {
        await recheck?.verify(); // nothing to write: the key is checked before anything is answered
      }
    } catch (error) {
      // The write found the key out of use: verify() refuses it as the guard would have.
      if (recheck && isKeyRefused(error)) await recheck.verify();
      throw error;
    }
    return results as ItemResult[];
  }

  /** Batches together in one transaction; when it fails, GroupCommit runs each batch alone, which is applyIsolated. */
  private async applyBatches(
    batches: Array<{ workspace: WorkspaceEntity; work: Work[] }>,
    opened?: () => void,
  ): Promise<ItemResult[][]> {
    if (batches.length === 1) return [await this.applyIsolated(batches[0].workspace, batches[0].work, opened)];
    const results = await this.applyAll(
      batches[batches.length - 1].workspace,
      batches.flatMap((b) => b.work),
      opened,
    );
    let at = 0;
    return batches.map((b) => results.slice(at, (at += b.work.length)));
  }

  /** One transaction for all; when it fails unexpectedly, each item alone, so one bad item keeps the others. */
  private async applyIsolated(workspace: WorkspaceEntity, work: Work[], opened?: () => void): Promise<ItemResult[]> {
    const outcomes = await runIsolated(
      (some: Work[]) => this.applyAll(workspace, some, opened),
      work,
      (error) => {
        if (isKeyRefused(error)) throw error; // the post's own key: every item would fail alike
        this.logger.warn(`shared transaction failed, applying items one by one: ${(error as Error).message}`);
      },
    );
    return outcomes.map((outcome) => {
      if (outcome.ok) return outcome.value;
      // the database is away: the post is refused 503, nothing written
      if (isUnavailable(outcome.error)) throw outcome.error;
      this.logger.error(`item failed: ${(outcome.error as Error).message}`);
      return new Refusal('server_error', SERVER_ERROR);
    });
  }

  /**
   * One transaction; run again when a concurrent post added one of its new keys first (isKeyRace), or
   * when the write found one of its new keys erased, or any erased key in a workspace it assumed lists
   * none (isSuppressedRace): then the unit reads the suppression list itself and answers suppressed for
   * the items naming it, and later posts to the workspace send their keys' hashes.
   */
  private async applyAll(workspace: WorkspaceEntity, work: Work[], opened?: () => void): Promise<ItemResult[]> {
    let readSuppressions = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.applyOnce(workspace, work, readSuppressions, opened);
      } catch (error) {
        if (isSegmentsChanged(error) && attempt < KEY_RACE_ATTEMPTS) {
          this.segments.forget(workspace.id); // the next attempt reads the segments as they are now
          continue;
        }
        if (attempt >= KEY_RACE_ATTEMPTS || !(isKeyRace(error) || isSuppressedRace(error))) throw error;
        if (isSuppressedRace(error)) this.suppressions.noteListed(workspace.id);
        readSuppressions ||= isSuppressedRace(error);
      }
    }
  }

  /** `opened` is called once the load has locked the people the work names (the batch lanes' overlap). */
  private async applyOnce(
    workspace: WorkspaceEntity,
    work: Work[],
    readSuppressions: boolean,
    opened?: () => void,
  ): Promise<ItemResult[]> {
    const now = new Date();
    const commands = work.map((w) => w.command);
    const keys = [...new Set(work.flatMap((w) => (w.keyId ? [w.keyId] : [])))];
    let named: NamedTouch[] = [];
    const plan = await this.segments.planFor(workspace.id);
    const results = await this.store.transaction(async (m) => {
      const unit = new IngestUnit(
        m,
        workspace,
        this.people,
        this.subscriptions,
        this.store,
        this.suppressions,
        now,
        this.touches,
        readSuppressions,
      );
      await unit.prepare(commands);
      opened?.();
      const applied: ItemResult[] = [];
      for (const w of work) applied.push(await unit.apply(w.command, w.history));
      // Live segments: each person the post changed is recomputed, in its transaction, for the segments reading what
      // changed (the membership statement then carries COMMIT).
      const at = this.segments.now();
      const pairs = this.segments.pairsFor(plan, unit.namedPeople(), { changes: unit.changes() }, at);
      await unit.flush(keys, { revision: plan.revision, follows: pairs.personIds.length > 0 });
      if (pairs.personIds.length) {
        commitWithNext(m);
        await this.segments.refreshPairs(m, workspace.id, plan, pairs, {}, at);
      }
      named = unit.named;
      return applied;
    });
    this.touches.noteNamed(workspace.id, named);
    this.outbox.kick();
    return results;
  }
}

/** An imported item is history; an event is when it happened more than the workspace's window before it arrived. */
function historyOf(command: Command, options: IngestOptions, arrivedAt: Date, workspace: WorkspaceEntity): boolean {
  if (options.imported) return true;
  return command.kind === 'event' && isHistory(command, arrivedAt, workspace.historyWindowHours);
}

function isExpired(command: Command, now: Date): command is EventCommand {
  return command.kind === 'event' && !!command.expiresAt && command.expiresAt.getTime() <= now.getTime();
}
