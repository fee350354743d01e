// The confirmation link's two answers (docs/security.md#the-confirmation-link): what its page shows (a GET confirms
// nothing: mail scanners open links), and the Confirm button's POST, which confirms through the events lib.
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, Refusal } from '@app/platform';
import { ConfirmationService, type ConfirmationResult } from '@app/events';
import { ConfirmationsRepository } from '@app/people';
import { WorkspacesRepository } from '@app/workspaces';
import { type ConfirmationLink, openConfirmationLink } from './domain';

export interface ConfirmationView {
  workspaceName: string;
  listName: string;
  /** pending: the page offers the Confirm button; subscribed: confirmed already. */
  status: 'pending' | 'subscribed';
}

const GONE =
  'This confirmation link is not for a subscription waiting to be confirmed (it was withdrawn, or left unconfirmed ' +
  'for 30 days): subscribe again on the form to get a new one.';

@Injectable()
export class ConfirmationLinksService {
  constructor(
    private readonly confirmations: ConfirmationsRepository,
    private readonly confirmation: ConfirmationService,
    private readonly workspaces: WorkspacesRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** What the page shows for a token; refuses not_found for a token not signed here or a subscription gone. */
  async view(token: string): Promise<ConfirmationView> {
    const link = this.open(token);
    const found = await this.confirmations.read(link.workspaceId, link.personId, link.listId);
    if (!found || (found.status !== 'pending' && found.status !== 'subscribed')) throw new Refusal('not_found', GONE);
    const workspace = await this.workspaces.findById(link.workspaceId);
    return { workspaceName: workspace?.name ?? '', listName: found.list.name, status: found.status };
  }

  /** The Confirm button's POST: the subscription becomes subscribed, with the time and `ip`. */
  async confirm(token: string, ip: string | null): Promise<ConfirmationResult> {
    const link = this.open(token);
    const result = await this.confirmation.confirm(link.workspaceId, link.personId, link.listId, ip);
    if (result.status === 'not_pending') throw new Refusal('not_found', GONE);
    return result;
  }

  private open(token: string): ConfirmationLink {
    const link = openConfirmationLink(token, this.config.appSecret);
    if (!link)
      throw new Refusal(
        'not_found',
        'This confirmation link is not valid: open the link exactly as the email gave it.',
      );
    return link;
  }
}
