// A broadcast's moves (docs/graphql.md#broadcasts): scheduled, sending (its audience fixed in the same transaction,
// docs/decisions.md#a-broadcasts-audience-is-fixed-when-sending-starts), paused, resumed, cancelled; each refused
// from a state that does not allow it, naming the state. And the test send to a member.
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SegmentsService } from '@app/events';
import { subscribedNowSql } from '@app/people';
import { AppConfig, CONFIG, newId, Refusal } from '@app/platform';
import { AuthContext, MembersService } from '@app/workspaces';
import { EMAIL_PROVIDER } from '../messaging.tokens';
import type { EmailProvider } from '../providers';
import { BroadcastLetter, BroadcastMailer } from './broadcast-mail';
import { BroadcastRecipientsRepository } from './broadcast-recipients.repository';
import { BroadcastRow, BroadcastsRepository } from './broadcasts.repository';
import { BroadcastsService, notFound } from './broadcasts.service';
import { BroadcastMove, moveRefusal, parseScheduledAt } from './domain/broadcast';

@Injectable()
export class BroadcastMovesService {
  private readonly logger = new Logger('Broadcasts');

  constructor(
    private readonly broadcasts: BroadcastsRepository,
    private readonly recipients: BroadcastRecipientsRepository,
    private readonly service: BroadcastsService,
    private readonly segments: SegmentsService,
    private readonly members: MembersService,
    private readonly mailer: BroadcastMailer,
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** Sending starts at `at` (a time past: at the worker's next look, within seconds). */
  async schedule(workspaceId: string, id: string, at: Date): Promise<BroadcastRow> {
    const when = parseScheduledAt(at, new Date());
    if (when instanceof Refusal) throw when;
    await this.service.letterOf(await this.existing(workspaceId, id, 'schedule'));
    return this.moved(workspaceId, id, 'schedule', (m) =>
      this.broadcasts.move(m, workspaceId, id, { state: 'scheduled', scheduledAt: when }),
    );
  }

  /** Sending starts now: the audience is fixed and the worker takes it from there. */
  async send(workspaceId: string, id: string): Promise<BroadcastRow> {
    const row = await this.existing(workspaceId, id, 'send');
    const letter = await this.service.letterOf(row);
    return this.moved(workspaceId, id, 'send', (m) => this.start(m, row, letter));
  }

  pause(workspaceId: string, id: string): Promise<BroadcastRow> {
    return this.moved(workspaceId, id, 'pause', (m) => this.broadcasts.move(m, workspaceId, id, { state: 'paused' }));
  }

  resume(workspaceId: string, id: string): Promise<BroadcastRow> {
    return this.moved(workspaceId, id, 'resume', (m) => this.broadcasts.move(m, workspaceId, id, { state: 'sending' }));
  }

  /** Nobody not reached yet gets it; an email leaving now still settles. */
  cancel(workspaceId: string, id: string): Promise<BroadcastRow> {
    return this.moved(workspaceId, id, 'cancel', async (m) => {
      await this.recipients.cancelOpen(m, workspaceId, id, this.config.broadcastLeaseMs);
      return this.broadcasts.move(m, workspaceId, id, { state: 'cancelled' });
    });
  }

  /**
   * The worker's move: scheduled broadcasts whose time has come start sending. One whose letter cannot be made now
   * (the postal address cleared, the template or list deleted) goes back to draft, its reason logged.
   */
  async startDue(): Promise<number> {
    return this.broadcasts.transaction(async (m) => {
      const due = await this.broadcasts.dueScheduled(m, 5);
      for (const { workspace_id, id } of due) {
        const row = (await this.broadcasts.find(workspace_id, id))!;
        try {
          await this.start(m, row, await this.service.letterOf(row));
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          this.logger.warn(`broadcast ${id} not started at its time, back to draft: ${error.message}`);
          await this.broadcasts.move(m, workspace_id, id, { state: 'draft', scheduledAt: null });
        }
      }
      return due.length;
    });
  }

  /** An email of the broadcast to the signed-in member (or another member's address), not stored, marked [Test]. */
  async sendTest(auth: AuthContext, id: string, email?: string | null): Promise<string> {
    const row = (await this.service.find(auth.workspaceId, id)) ?? notFound(id);
    const to = (email ?? auth.memberEmail).trim().toLowerCase();
    const members = await this.members.list(auth.workspaceId);
    if (!members.some((m) => m.email.toLowerCase() === to && !m.removedAt))
      throw new Refusal('invalid_field', "email must be a member's address: a test goes to the workspace's members.", {
        field: 'email',
      });
    if (!this.provider)
      throw new Refusal('conflict', 'No email provider is configured (SMTP_URL or RESEND_API_KEY): nothing can leave.');
    const letter = await this.service.letterOf(row);
    const messageId = newId('msg');
    const mail = await this.mailer.compose(letter, { id: 'test', name: null, email: to, fields: {} }, messageId);
    await this.provider.send({
      from: this.config.emailFrom,
      to,
      subject: `[Test] ${mail.rendered.subject}`,
      html: mail.rendered.html,
      text: mail.rendered.text,
      headers: mail.headers,
      messageId: mail.messageIdHeader,
    });
    return to;
  }

  /** The audience fixed, the template's subject and body kept, and the broadcast sending, in `m`. */
  private async start(m: EntityManager, row: BroadcastRow, letter: BroadcastLetter): Promise<BroadcastRow> {
    const { workspace_id: workspaceId, id } = row;
    const { audience: to } = letter;
    const condition =
      to.kind === 'list'
        ? (bind: (value: unknown) => string) => subscribedNowSql('$1', 'p.id', bind(to.address))
        : this.segments.memberCondition(workspaceId, to.id).sql;
    const audience = await this.recipients.fixAudience(m, workspaceId, id, condition);
    return this.broadcasts.move(m, workspaceId, id, {
      state: 'sending',
      audience,
      started: true,
      content: { subject: letter.subject, body: letter.body },
    });
  }

  private async existing(workspaceId: string, id: string, move: BroadcastMove): Promise<BroadcastRow> {
    const row = (await this.service.find(workspaceId, id)) ?? notFound(id);
    const refused = moveRefusal(row.state, move);
    if (refused) throw refused;
    return row;
  }

  /** The move made under the broadcast's lock, refused when its state (read under the lock) does not allow it. */
  private moved(
    workspaceId: string,
    id: string,
    move: BroadcastMove,
    work: (m: EntityManager) => Promise<BroadcastRow>,
  ): Promise<BroadcastRow> {
    return this.broadcasts.transaction(async (m) => {
      const row = (await this.broadcasts.lock(m, workspaceId, id)) ?? notFound(id);
      const refused = moveRefusal(row.state, move);
      if (refused) throw refused;
      return work(m);
    });
  }
}
