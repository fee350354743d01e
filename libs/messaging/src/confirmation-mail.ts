// Double opt-in's confirmation email (docs/decisions.md#double-opt-in-confirms-by-a-post): the relay hands this
// handler the confirmation_requested happenings a subscribe to a double opt-in list wrote, and once the relay has
// committed it sends each pending subscription its email: the workspace's confirm-subscription template (or the
// default) with {{ confirm_url }}, the signed link of docs/security.md#the-confirmation-link. The email carries no
// List-Unsubscribe: the person is on no list yet, and a link that takes them off would only confuse.
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig, CONFIG } from '@app/platform';
import { OutboxHandler, OutboxRow } from '@app/outbox';
import { CONFIRMATION_REQUESTED } from '@app/events';
import { ConfirmationsRepository, DOUBLE_OPT_IN_WORKSPACES } from '@app/people';
import { WorkspacesRepository } from '@app/workspaces';
import { CONFIRMATION_TEMPLATE, confirmationUrl, DEFAULT_CONFIRMATION } from './domain';
import { EMAIL_PROVIDER } from './messaging.tokens';
import type { EmailProvider } from './providers';
import { MessageRenderer } from './render/message-renderer';
import { TemplatesRepository } from './templates.repository';

interface Requested {
  workspaceId: string;
  personId: string;
  listId: string;
}

@Injectable()
export class ConfirmationMail implements OutboxHandler {
  readonly name = 'confirmation-mail';
  readonly hearing = DOUBLE_OPT_IN_WORKSPACES;
  private readonly logger = new Logger('ConfirmationMail');

  constructor(
    private readonly confirmations: ConfirmationsRepository,
    private readonly workspaces: WorkspacesRepository,
    private readonly templates: TemplatesRepository,
    private readonly renderer: MessageRenderer,
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  handle(_m: EntityManager, rows: OutboxRow[]): Promise<(() => Promise<void>) | void> {
    const requested: Requested[] = rows.flatMap((row) => {
      const data = (row.payload as { data?: Record<string, { list?: { id?: string } }> }).data;
      const listId = data?.[CONFIRMATION_REQUESTED]?.list?.id;
      return row.kind === CONFIRMATION_REQUESTED && listId && row.personId
        ? [{ workspaceId: row.workspaceId, personId: row.personId, listId }]
        : [];
    });
    if (requested.length === 0) return Promise.resolve();
    return Promise.resolve(async () => {
      for (const r of requested)
        await this.send(r).catch((error: Error) =>
          this.logger.warn(`confirmation email for ${r.personId} on ${r.listId} not sent: ${error.message}`),
        );
    });
  }

  /** Sends one pending subscription its confirmation email; nothing when it is no longer pending or has no address. */
  async send(r: Requested): Promise<void> {
    const found = await this.confirmations.read(r.workspaceId, r.personId, r.listId);
    if (!found || found.status !== 'pending' || !found.email) return;
    const link = confirmationUrl(this.config.baseUrl, r, this.config.appSecret);
    if (!this.provider) {
      this.logger.warn(`no email provider: the confirmation link for ${r.personId} on ${r.listId} is ${link}`);
      return;
    }
    const [workspace, template] = await Promise.all([
      this.workspaces.findById(r.workspaceId),
      this.templates.byIdOrName(r.workspaceId, CONFIRMATION_TEMPLATE),
    ]);
    const rendered = await this.renderer.render(r.workspaceId, template ?? DEFAULT_CONFIRMATION, {
      person: { id: r.personId, email: found.email, name: found.name, fields: found.fields ?? {} },
      workspace: { name: workspace?.name ?? '' },
      list: { name: found.list.name, address: found.list.address },
      confirm_url: link,
    });
    await this.provider.send({ from: this.config.emailFrom, to: found.email, ...rendered });
  }
}
