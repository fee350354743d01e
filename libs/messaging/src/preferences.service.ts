// What the signed link of every email does (docs/rest.md#the-preferences-link): RFC 8058's one-click POST takes the
// person off the lists it names and opts them out of email; the page's Save takes them off the lists they unticked.
// A link that was not signed here, or names nobody any more, changes nothing.
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, Refusal } from '@app/platform';
import { WorkspacesService } from '@app/workspaces';
import { OutboxWriter } from '@app/outbox';
import { UnsubscribeService, type UnsubscribeFrom } from '@app/events';
import { PeopleReadRepository, PersonRow } from '@app/people';
import { openPreferencesLink, OptOut, PreferencesLink } from './domain';
import { EmailStandingService } from './email-standing.service';

/** One list on the page: the words the person agreed to and when, and whether they are still on it. */
export interface PreferenceList {
  id: string;
  name: string;
  subscribed: boolean;
  /** Waiting for the person to confirm by email (a double opt-in list). */
  pending: boolean;
  consentText: string;
  grantedAt: Date;
  withdrawnAt: Date | null;
}

export interface PreferencesView {
  workspaceName: string;
  lists: PreferenceList[];
  optOut: OptOut | null;
}

interface Opened {
  link: PreferencesLink;
  person: PersonRow;
}

const GONE = () =>
  new Refusal('not_found', 'This link is not one the service made, or the person it named is no longer here.');

@Injectable()
export class PreferencesService {
  constructor(
    private readonly people: PeopleReadRepository,
    private readonly workspaces: WorkspacesService,
    private readonly standing: EmailStandingService,
    private readonly unsubscribes: UnsubscribeService,
    private readonly outbox: OutboxWriter,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async view(token: string): Promise<PreferencesView> {
    const { link, person } = await this.open(token);
    const [workspace, subscriptions, standing] = await Promise.all([
      this.workspaces.get(link.workspaceId),
      this.people.subscriptionsOf(link.workspaceId, [person.id]),
      this.standing.of(link.workspaceId, person),
    ]);
    return {
      workspaceName: workspace.name,
      lists: subscriptions.map((s) => ({
        id: s.list_id,
        name: s.name,
        // A pending double opt-in counts as on the list here: unticking it withdraws it too.
        subscribed: s.status !== 'unsubscribed',
        pending: s.status === 'pending',
        consentText: s.consent_text,
        grantedAt: new Date(s.granted_at),
        withdrawnAt: s.withdrawn_at ? new Date(s.withdrawn_at) : null,
      })),
      optOut: standing.optOut,
    };
  }

  /** RFC 8058: off every list of the workspace (or the link's one list), and no more email. */
  async oneClick(token: string, ip: string | null): Promise<void> {
    const { link, person } = await this.open(token);
    const from: UnsubscribeFrom = link.listId ? { listId: link.listId } : { all: true };
    // One transaction: the opt-out and the withdrawal hold together or not at all.
    await this.standing.transaction(async (m) => {
      await this.standing.optOut(m, link.workspaceId, person.id, 'one_click');
      await this.unsubscribes.unsubscribe(link.workspaceId, person.id, from, { via: 'one_click', ip }, m);
    });
    this.outbox.kick();
  }

  /** The page's Save: off each list the person is on and left unticked; the ticked ones stay as they are. */
  async save(token: string, ticked: readonly string[], ip: string | null): Promise<void> {
    const { link, person } = await this.open(token);
    const subscriptions = await this.people.subscriptionsOf(link.workspaceId, [person.id]);
    const keep = new Set(ticked);
    for (const s of subscriptions)
      if (s.status !== 'unsubscribed' && !keep.has(s.list_id))
        await this.unsubscribes.unsubscribe(
          link.workspaceId,
          person.id,
          { listId: s.list_id },
          { via: 'preferences', ip },
        );
  }

  private async open(token: string): Promise<Opened> {
    const link = openPreferencesLink(token, this.config.appSecret);
    if (!link) throw GONE();
    // A merge leads to the person the link's person became; an erased person is gone.
    const person = await this.people.byId(link.workspaceId, link.personId);
    if (!person) throw GONE();
    return { link, person };
  }
}
