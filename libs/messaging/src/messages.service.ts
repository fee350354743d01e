// The messages endpoints (docs/rest.md#messages): send (the engaged rule, templates, the timeline row), page and
// thread.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig, CONFIG, type LimitName, newId, Refusal } from '@app/platform';
import { AuthContext } from '@app/workspaces';
import { happening, OutboxWriter } from '@app/outbox';
import { Message, MessagePage, MessageThread, SendSuccess } from '@app/wire';
import { PeopleReadRepository, PersonRow } from '@app/people';
import {
  encodeCursor,
  parseBody,
  parseMessageQuery,
  parseSendMessage,
  parseSubject,
  RenderedMessage,
  SendMessageInput,
} from './domain';
import { EmailQueue } from './email-queue';
import { EmailStandingService } from './email-standing.service';
import { MessageRead, MessagesRepository } from './messages.repository';
import { MessageRenderer } from './render/message-renderer';
import { TemplatesRepository } from './templates.repository';

export function messageView(row: MessageRead): Message {
  return {
    id: row.id,
    direction: row.direction,
    at: new Date(row.at).toISOString(),
    person: { id: row.person_id, name: row.person_name ?? '', email: row.person_email ?? '' },
    subject: row.subject,
    text: row.text,
    ...(row.provider_id ? { providerId: row.provider_id } : {}),
    ...(row.status ? { status: row.status } : {}),
  };
}

const THREAD_LIMIT = 500;

/**
 * The allowance a member's send spends, one a send, counted per key or connection with the events endpoint: at
 * POST /api/v1/messages and at the tool door's send_email alike (docs/rest.md#messages).
 */
export const SEND_LIMIT = 'server' satisfies LimitName;

/** What a send fills in: a template's subject and body, or those sent. */
interface MessageSource {
  subject: string;
  body: string;
  templateId: string | null;
}

@Injectable()
export class MessagesService {
  private readonly logger = new Logger('Messages');

  constructor(
    private readonly messages: MessagesRepository,
    private readonly templates: TemplatesRepository,
    private readonly people: PeopleReadRepository,
    private readonly outbox: OutboxWriter,
    private readonly queue: EmailQueue,
    private readonly renderer: MessageRenderer,
    private readonly standing: EmailStandingService,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  send(auth: AuthContext, raw: unknown): Promise<SendSuccess> {
    return this.sendFor(auth.workspaceId, raw, { waitForProvider: true });
  }

  /**
   * The same send for the workspace's own work (an automation's send_email step): the same rules and
   * refusals; without waiting for the provider, the email is handed to the queue and leaves from there.
   * `properties` are the run's facts, which the template reads as {{ properties.name }}.
   */
  async sendFor(
    workspaceId: string,
    raw: unknown,
    options: { waitForProvider: boolean; properties?: Record<string, unknown> },
  ): Promise<SendSuccess> {
    const input = parseSendMessage(raw);
    if (input instanceof Refusal) throw input;
    const source = await this.sourceOf(workspaceId, input);
    const found = await this.findPerson(workspaceId, input.to);
    const rendered = await this.renderFor(workspaceId, source, found, options.properties);
    const id = newId('msg');
    const queued = this.queue.enabled;
    await this.store(workspaceId, { id, personId: found.id, rendered, templateId: source.templateId, queued });
    this.outbox.kick();
    if (!queued) return { ok: true, id };
    if (!options.waitForProvider) {
      await this.queue.enqueue({ workspaceId, messageId: id });
      return { ok: true, id };
    }
    const providerId = await this.queue.sendAndWait({ workspaceId, messageId: id });
    return providerId ? { ok: true, id, providerId } : { ok: true, id };
  }

  /** The subject and body to fill in: the template's, or those sent. */
  private async sourceOf(workspaceId: string, input: SendMessageInput): Promise<MessageSource> {
    if (!input.template) return { subject: input.subject!, body: input.body!, templateId: null };
    const template = await this.templates.byIdOrName(workspaceId, input.template);
    if (!template)
      throw new Refusal(
        'unknown_template',
        `No template has the name or id "${input.template.slice(0, 80)}": create it first or check the name.`,
      );
    // A subject or body sent beside a template overrides the template's own.
    return {
      subject: input.subject ?? template.subject,
      body: input.body ?? template.body,
      templateId: template.id,
    };
  }

  /** The message filled in for this person, refused when what comes out is over the limits. */
  private async renderFor(
    workspaceId: string,
    source: MessageSource,
    found: PersonRow,
    properties: Record<string, unknown> | undefined,
  ): Promise<RenderedMessage> {
    // One trip to a render thread: a Liquid syntax error is refused there (after the person is found).
    const rendered = await this.renderer.render(
      workspaceId,
      { subject: source.subject, body: source.body },
      {
        person: { id: found.id, name: found.name, email: found.email, fields: found.fields ?? {} },
        properties,
        preferences_url: this.standing.preferencesUrl(workspaceId, found.id),
      },
    );
    // The limits hold for what is sent: a template filled in for this person is checked as it comes out.
    for (const outcome of [parseSubject(rendered.subject), parseBody(rendered.text)]) {
      if (outcome instanceof Refusal)
        throw new Refusal(
          outcome.code,
          `${outcome.message.replace(/\.$/, '')} once filled in for this person: check the template and the ` +
            `person's fields.`,
        );
    }
    return rendered;
  }

  /** The message and its email_sent happening, in one transaction. */
  private async store(
    workspaceId: string,
    message: { id: string; personId: string; rendered: RenderedMessage; templateId: string | null; queued: boolean },
  ): Promise<void> {
    const { id, rendered, queued } = message;
    const at = new Date();
    await this.messages.transaction(async (m) => {
      // Locks the person's identity keys so a concurrent merge cannot strand the message.
      const person = await this.messages.lockPerson(m, workspaceId, message.personId);
      if (!person) throw new Refusal('no_such_person', 'That person no longer exists: check the address or id.');
      await this.messages.insert(m, {
        workspaceId,
        id,
        personId: person.id,
        direction: 'out',
        at,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        templateId: message.templateId,
        sendState: queued ? 'queued' : 'stored',
        address: person.email!,
      });
      await this.outbox.write(m, [
        happening(workspaceId, person.id, at, { event: { event: 'email_sent', id, occurred_at: at.toISOString() } }),
      ]);
    });
  }

  /** One message as pages show it (the admin API answers a send with the message it stored). */
  async one(auth: AuthContext, id: string): Promise<Message> {
    const row = await this.messages.one(auth.workspaceId, id);
    if (!row) throw new Refusal('not_found', 'No message of this workspace has that id.');
    return messageView(row);
  }

  /** Refusals in the spec's order: who, then an address, then the engaged rule; then an opt-out or a bounce. */
  private async findPerson(
    workspaceId: string,
    to: { kind: 'email'; email: string } | { kind: 'id'; id: string },
  ): Promise<PersonRow> {
    const person =
      to.kind === 'email'
        ? await this.people.byEmail(workspaceId, to.email)
        : await this.people.byId(workspaceId, to.id);
    if (!person)
      throw new Refusal('no_such_person', 'No record has that address or id: check it, or record the person first.');
    if (!person.email) throw new Refusal('no_email', 'That person has no email address: identify them with one first.');
    if (!person.engaged_at) {
      throw new Refusal(
        'not_engaged',
        'Email goes only to people who bought, signed up, wrote in, replied or joined a list; this person has ' +
          'done none of these.',
      );
    }
    await this.standing.assertMaySend(workspaceId, person);
    return person;
  }

  async page(auth: AuthContext, query: Record<string, unknown>): Promise<MessagePage> {
    const parsed = parseMessageQuery(query);
    if (parsed instanceof Refusal) throw parsed;
    let personId: string | undefined;
    if (parsed.person) {
      const person = await this.people.byWho(auth.workspaceId, parsed.person);
      if (!person) return { ok: true as const, messages: [] };
      personId = person.id;
    }
    const rows = await this.messages.page(auth.workspaceId, {
      personId,
      direction: parsed.direction,
      since: parsed.since,
      until: parsed.until,
      cursor: parsed.cursor,
      limit: parsed.limit + 1,
    });
    const more = rows.length > parsed.limit;
    const shown = rows.slice(0, parsed.limit);
    const last = shown[shown.length - 1];
    return {
      ok: true as const,
      messages: shown.map(messageView),
      ...(more && last ? { nextCursor: encodeCursor(new Date(last.at), last.id) } : {}),
    };
  }

  async thread(auth: AuthContext, who: string): Promise<MessageThread> {
    // The router has already decoded the path part; decoding again would misread a literal %.
    const person = await this.people.byWho(auth.workspaceId, who);
    if (!person) throw new Refusal('no_such_person', 'No record has that address or id: check it.');
    const rows = await this.messages.thread(auth.workspaceId, person.id, THREAD_LIMIT);
    return { ok: true as const, person: person.id, messages: rows.reverse().map(messageView) };
  }
}
