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
import { Pace, RecipientTurn } from './recipient-turn';

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

  constructor(
    private readonly recipients: BroadcastRecipientsRepository,
    private readonly broadcasts: BroadcastsRepository,
    private readonly service: BroadcastsService,
    private readonly moves: BroadcastMovesService,
    private readonly turn: RecipientTurn,
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Without a provider nothing can leave: the broadcasts wait, sending, for a worker that has one.
    if (!this.provider) return this.logger.warn('No email provider (SMTP_URL or RESEND_API_KEY): broadcasts wait.');
    this.running = this.loop();
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

  private async loop(): Promise<void> {
    let failing = false;
    while (!this.stopped) {
      let claimed: ClaimedRecipient[] = [];
      try {
        await this.moves.startDue();
        claimed = await this.recipients.claim(this.worker, this.config.broadcastLeaseMs, this.claimSize);
        await this.work(claimed);
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
   * The claimed rows' turns, BROADCAST_SENDS_IN_FLIGHT at once: each send waits on the provider and the database's
   * commits, so one at a time leaves the process idle; a crash's window is that many emails
   * (docs/decisions.md#a-broadcast-sends-at-most-once-per-person-where-the-provider-confirms). Rows left when stopping, or of a broadcast no longer
   * sending, go back.
   */
  private async work(claimed: ClaimedRecipient[]): Promise<void> {
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) await this.one(claimed[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(this.config.broadcastSendsInFlight, claimed.length) }, lane));
  }

  private async one(r: ClaimedRecipient): Promise<void> {
    const k = { workspaceId: r.workspace_id, broadcastId: r.broadcast_id, personId: r.person_id };
    const letter = this.stopped ? null : await this.letterOf(r.workspace_id, r.broadcast_id);
    if (!letter) return this.recipients.release(k, this.worker);
    try {
      await this.turn.take(this.worker, letter, r, this.pace);
    } catch (error) {
      // The row stays claimed: after the lease this worker or another takes it again.
      this.logger.error(`broadcast ${r.broadcast_id}: ${(error as Error).message}`);
    }
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

  /** This process's send slots: 1 / BROADCAST_MESSAGES_PER_SECOND seconds apart (none when 0). */
  private readonly pace: Pace = {
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
