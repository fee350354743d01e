// One broadcast email for one person (docs/graphql.md#broadcasts): the template filled in as a one-to-one send
// fills it, the footer, and the list headers: List-Unsubscribe and List-Unsubscribe-Post for the broadcast's list
// (a segment's: the preference page for all lists), List-Id (docs/decisions.md#a-broadcasts-list-id), and a
// Message-ID made from the message id.
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, Refusal } from '@app/platform';
import { listUnsubscribeHeaders, parseBody, parseSubject, RenderedMessage } from '../domain';
import { EmailStandingService } from '../email-standing.service';
import { MessageRenderer } from '../render/message-renderer';
import { withFooter } from './domain/footer';
import { broadcastMessageId, listId } from './domain/recipient';

/** What every email of one broadcast shares, fixed when its sending starts. */
export interface BroadcastLetter {
  workspaceId: string;
  workspaceSlug: string;
  workspaceName: string;
  postalAddress: string;
  broadcastId: string;
  subject: string;
  body: string;
  audience: { kind: 'list'; listId: string; address: string; name: string } | { kind: 'segment'; id: string };
}

export interface BroadcastMail {
  rendered: RenderedMessage;
  headers: Record<string, string>;
  /** The Message-ID header's value, with its angle brackets. */
  messageIdHeader: string;
}

export interface LetterPerson {
  id: string;
  name: string | null;
  email: string | null;
  fields: Record<string, unknown> | null;
}

@Injectable()
export class BroadcastMailer {
  /** Each broadcast's rendering when it has no Liquid tag, with the subject and body it was made from. */
  private readonly plain = new Map<string, { subject: string; body: string; rendered: RenderedMessage }>();

  constructor(
    private readonly renderer: MessageRenderer,
    private readonly standing: EmailStandingService,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async compose(letter: BroadcastLetter, person: LetterPerson, messageId: string): Promise<BroadcastMail> {
    const rendered = await this.rendered(letter, person);
    return {
      rendered: withFooter(rendered, letter.postalAddress, this.leaveUrl(letter, person.id)),
      ...this.headers(letter, person.id, messageId),
    };
  }

  /**
   * The subject and body filled in for the person. Without a Liquid tag in either, every person's is the same: it is
   * rendered once per broadcast (a render thread's turn is most of a send's cost), the footer still each person's.
   */
  private async rendered(letter: BroadcastLetter, person: LetterPerson): Promise<RenderedMessage> {
    const plain = !/\{[{%]/.test(letter.subject + letter.body);
    const kept = plain ? this.plain.get(letter.broadcastId) : undefined;
    if (kept && kept.subject === letter.subject && kept.body === letter.body) return kept.rendered;
    const rendered = await this.render(letter, person);
    if (plain) {
      this.plain.set(letter.broadcastId, { subject: letter.subject, body: letter.body, rendered });
      if (this.plain.size > 100) this.plain.delete(this.plain.keys().next().value!);
    }
    return rendered;
  }

  private async render(letter: BroadcastLetter, person: LetterPerson): Promise<RenderedMessage> {
    const { workspaceId, audience } = letter;
    const rendered = await this.renderer.render(
      workspaceId,
      { subject: letter.subject, body: letter.body },
      {
        person: { id: person.id, name: person.name, email: person.email, fields: person.fields ?? {} },
        preferences_url: this.standing.preferencesUrl(workspaceId, person.id),
        workspace: { name: letter.workspaceName, slug: letter.workspaceSlug },
        ...(audience.kind === 'list' ? { list: { name: audience.name, address: audience.address } } : {}),
      },
    );
    for (const outcome of [parseSubject(rendered.subject), parseBody(rendered.text)])
      if (outcome instanceof Refusal)
        throw new Refusal(outcome.code, `${outcome.message.replace(/\.$/, '')} once filled in for this person.`);
    return rendered;
  }

  /** The headers alone: a resend after a crash sends the stored message with the same ones. */
  headers(letter: BroadcastLetter, personId: string, messageId: string): Omit<BroadcastMail, 'rendered'> {
    const { audience } = letter;
    return {
      messageIdHeader: broadcastMessageId(messageId, this.config.emailFrom),
      headers: {
        'X-Lifeline-Message': messageId,
        'X-Lifeline-Broadcast': letter.broadcastId,
        'List-Id': listId(audience.kind === 'list' ? audience.address : audience.id, letter.workspaceSlug),
        ...listUnsubscribeHeaders(this.leaveUrl(letter, personId)),
      },
    };
  }

  /** A list's mail: the link takes the person off that list; a segment's: the preference page for all lists. */
  private leaveUrl(letter: BroadcastLetter, personId: string): string {
    const forList = letter.audience.kind === 'list' ? letter.audience.listId : undefined;
    return this.standing.preferencesUrl(letter.workspaceId, personId, forList);
  }
}
