// The worker's broadcast loop (docs/graphql.md#broadcasts): starts scheduled broadcasts when due, claims a few
// recipients of sending ones at a time (another worker's after its lease), gives each its turn at the pace
// BROADCAST_MESSAGES_PER_SECOND sets for this process, and marks a broadcast sent once nobody is left.
import { hostname } from 'node:os';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, CONFIG, newId } from '@app/platform';
import { EMAIL_PROVIDER } from '../messaging.tokens';
import type { EmailProvider } from '../providers';
import { BroadcastLetter } from './broadcast-mail';
import { BroadcastMovesService } from './broadcast-moves.service';
import { BroadcastRecipientsRepository, ClaimedRecipient } from './broadcast-recipients.repository';
import { BroadcastsRepository } from './broadcasts.repository';
import { BroadcastsService } from './broadcasts.service';
import { RecipientBatch } from './recipient-batch';
import { inLanes, Pace, RecipientTurn, Slots } from './recipient-turn';

/** The wait between looks when there is nothing to send, and after a look that failed. */
const IDLE_MS = 500;
const FAILING_MS = 5_000;
/** A broadcast's letter is read again after this long (its subject and body are fixed at the start; the footer not). */
const LETTER_KEPT_MS = 2_000;
const MAX_CLAIM = 50;

@Injectable()
export class BroadcastSender implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BroadcastSender');
  /** This process's name on the rows it claims. */
  readonly worker = `${hostname()}:${process.pid}:${newId('w').slice(-8)}`;
  private stopped = false;
  private running: Promise<void> | null = null;
  private nextSendAt = 0;
  private readonly letters = new Map<string, { at: number; letter: BroadcastLetter | null }>();
  /** The recipients (broadcast and person) a batch of this process is working on. */
  private readonly working = new Set<string>();

  constructor(
    private readonly recipients: BroadcastRecipientsRepository,
    private readonly broadcasts: BroadcastsRepository,
    private readonly service: BroadcastsService,
    private readonly moves: BroadcastMovesService,
    private readonly turn: RecipientTurn,
    private readonly batch: RecipientBatch,
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Without a provider nothing can leave: the broadcasts wait, sending, for a worker that has one.
    if (!this.provider) return this.logger.warn('No email provider (SMTP_URL or RESEND_API_KEY): broadcasts wait.');
    // Several claims at once (BROADCAST_BATCHES_IN_FLIGHT), so one batch's reads and commits overlap another's sends.
    const loops = Array.from({ length: this.config.broadcastBatchesInFlight }, (_, i) => this.loop(i));
    this.running = Promise.all(loops).then(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** How many rows one claim takes: what this process sends well within a lease at its pace. */
  private get claimSize(): number {
    const rate = this.config.broadcastMessagesPerSecond;
    if (rate === 0) return MAX_CLAIM;
    return Math.max(1, Math.min(MAX_CLAIM, Math.floor((rate * this.config.broadcastLeaseMs) / 4_000)));
  }

  private async loop(index: number): Promise<void> {
    let failing = false;
    while (!this.stopped) {
      if (index > 0 && this.config.broadcastMessagesPerSecond > 0) {
        // At a set pace the pace is the bound, not the round trips: one batch at a time, so a pause leaves at most
        // one batch's emails (stored before it, each at its slot) still to go.
        await sleep(IDLE_MS);
        continue;
      }
      let claimed: ClaimedRecipient[] = [];
      try {
        await this.moves.startDue();
        claimed = await this.recipients.claim(this.worker, this.config.broadcastLeaseMs, this.claimSize);
        await this.workOnce(claimed);
        if (claimed.length === 0) await this.broadcasts.finishDone();
        failing = false;
      } catch (error) {
        // Once per outage (the database away, say), not at every look.
        if (!failing) this.logger.error(`broadcast loop: ${(error as Error).message}`);
        failing = true;
      }
      if (this.stopped) break;
      if (failing) await sleep(FAILING_MS);
      else if (claimed.length === 0) await sleep(IDLE_MS);
    }
  }

  /**
   * The rows no other batch of this process is working on: a claim whose lease ran out while this process still
   * works on it (a slow provider) is taken again by the claim, and left to the batch that has it.
   */
  private async workOnce(claimed: ClaimedRecipient[]): Promise<void> {
    const key = (r: ClaimedRecipient) => `${r.broadcast_id} ${r.person_id}`;
    const mine = claimed.filter((r) => !this.working.has(key(r)));
    for (const r of mine) this.working.add(key(r));
    try {
      await this.work(mine);
    } finally {
      for (const r of mine) this.working.delete(key(r));
    }
  }

  /**
   * The claimed rows' turns: an interrupted send's one at a time, the queued ones of each broadcast in batches of
   * what this process sends in a fifth of a second at its pace (so a person's check is that fresh when their email
   * leaves). Rows left when stopping, or of a broadcast no longer sending, go back.
   */
  private async work(claimed: ClaimedRecipient[]): Promise<void> {
    for (const [broadcastId, rows] of groupBy(claimed, (r) => r.broadcast_id)) {
      const { workspace_id } = rows[0];
      for (let i = 0; i < rows.length; i += this.batchSize) {
        const some = rows.slice(i, i + this.batchSize);
        const letter = this.stopped ? null : await this.letterOf(workspace_id, broadcastId);
        const batch = { workspaceId: workspace_id, broadcastId, worker: this.worker };
        if (!letter)
          await this.recipients.releaseMany(
            batch,
            some.map((r) => r.person_id),
          );
        else await this.turns(letter, some);
      }
    }
  }

  private async turns(letter: BroadcastLetter, rows: ClaimedRecipient[]): Promise<void> {
    try {
      const interrupted = rows.filter((r) => r.state === 'sending');
      await inLanes(interrupted, this.config.broadcastSendsInFlight, (r) =>
        this.turn.take(this.worker, letter, r, this.pace),
      );
      const queued = rows.filter((r) => r.state !== 'sending');
      if (queued.length) await this.batch.take(this.worker, letter, queued, this.pace);
    } catch (error) {
      // The rows stay claimed: after the lease this worker or another takes them again.
      this.logger.error(`broadcast ${letter.broadcastId}: ${(error as Error).message}`);
    }
  }

  private get batchSize(): number {
    const rate = this.config.broadcastMessagesPerSecond;
    return rate === 0 ? MAX_CLAIM : Math.max(1, Math.min(MAX_CLAIM, Math.floor(rate / 5)));
  }

  /**
   * The broadcast's letter, kept a few seconds; null when it is not sending (paused, cancelled, gone) or cannot be
   * made now. A pause within those seconds still stops the next send: marking a row 'sending' asks the state again.
   */
  private async letterOf(workspaceId: string, id: string): Promise<BroadcastLetter | null> {
    const kept = this.letters.get(id);
    if (kept && Date.now() - kept.at < LETTER_KEPT_MS) return kept.letter;
    const row = await this.broadcasts.find(workspaceId, id);
    const letter =
      row?.state !== 'sending'
        ? null
        : await this.service.letterOf(row).catch((error: Error) => {
            this.logger.warn(`broadcast ${id} cannot send now: ${error.message}`);
            return null;
          });
    this.letters.set(id, { at: Date.now(), letter });
    if (this.letters.size > 100) this.letters.delete(this.letters.keys().next().value!);
    return letter;
  }

  /** This process's calls to the provider, BROADCAST_SENDS_IN_FLIGHT at once. */
  private slots: Slots | null = null;

  /** This process's send slots: 1 / BROADCAST_MESSAGES_PER_SECOND seconds apart (none when 0). */
  private readonly pace: Pace = {
    inFlight: (call) => (this.slots ??= new Slots(this.config.broadcastSendsInFlight)).run(call),
    wait: async () => {
      const rate = this.config.broadcastMessagesPerSecond;
      if (rate === 0) return;
      const now = Date.now();
      const at = Math.max(now, this.nextSendAt);
      this.nextSendAt = at + 1000 / rate;
      if (at > now) await sleep(at - now);
    },
    giveBack: () => {
      const rate = this.config.broadcastMessagesPerSecond;
      if (rate > 0) this.nextSendAt = Math.max(Date.now(), this.nextSendAt - 1000 / rate);
    },
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
