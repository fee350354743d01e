// Whether email may go to a person, and the opt-outs and marks that say no
// (docs/decisions.md#opt-out-and-undeliverable): a send asks here, the person's page shows it, and owners and
// admins lift it.
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig, CONFIG, Refusal } from '@app/platform';
import { PeopleReadRepository, PersonRow } from '@app/people';
import {
  OptOut,
  OptOutVia,
  preferencesUrl,
  sendStandingRefusal,
  standingOptOut,
  standingUndeliverable,
  Undeliverable,
} from './domain';
import { EmailStandingsRepository, StandingRow, standingRows } from './email-standings.repository';

export interface EmailStanding {
  optOut: OptOut | null;
  undeliverable: Undeliverable | null;
}

@Injectable()
export class EmailStandingService {
  constructor(
    private readonly standings: EmailStandingsRepository,
    private readonly people: PeopleReadRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async of(workspaceId: string, person: Pick<PersonRow, 'id' | 'email'>): Promise<EmailStanding> {
    return this.fromRows(workspaceId, person, await this.standings.rowsOf(workspaceId, [person.id]));
  }

  /** The standing the person's rows make; subscriptions are read only when an opt-out may stand. */
  async fromRows(
    workspaceId: string,
    person: Pick<PersonRow, 'id' | 'email'>,
    rows: readonly StandingRow[],
  ): Promise<EmailStanding> {
    const { optOuts, undeliverable } = standingRows(rows);
    const subscriptions = optOuts.length ? await this.people.subscriptionsOf(workspaceId, [person.id]) : [];
    return {
      optOut: standingOptOut(optOuts, subscriptions),
      undeliverable: standingUndeliverable(undeliverable, person.email),
    };
  }

  /** The rows of many people at once (the admin API's loader). */
  rowsOf(workspaceId: string, personIds: readonly string[]): Promise<StandingRow[]> {
    return this.standings.rowsOf(workspaceId, personIds);
  }

  /** Refuses a send to a person who opted out or whose address bounced for good (docs/rest.md#messages). */
  async assertMaySend(workspaceId: string, person: Pick<PersonRow, 'id' | 'email'>): Promise<void> {
    const standing = await this.of(workspaceId, person);
    const refusal = sendStandingRefusal(standing.optOut, standing.undeliverable);
    if (refusal) throw refusal;
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.standings.transaction(work);
  }

  /** Opts the person out, unless an opt-out already stands: a link posted again adds no second row. */
  async optOut(
    m: EntityManager | null,
    workspaceId: string,
    personId: string,
    via: OptOutVia,
    messageId?: string | null,
  ): Promise<void> {
    const standing = await this.of(workspaceId, { id: personId, email: null });
    if (standing.optOut) return;
    await this.standings.optOut(m, { workspaceId, personId, via, at: new Date(), messageId });
  }

  /** Marks the address undeliverable, unless it already is. */
  async markUndeliverable(
    m: EntityManager,
    row: { workspaceId: string; personId: string; address: string; messageId: string },
  ): Promise<void> {
    const standing = await this.of(row.workspaceId, { id: row.personId, email: row.address });
    if (standing.undeliverable) return;
    await this.standings.markUndeliverable(m, { ...row, at: new Date() });
  }

  /** An owner's or admin's lift (docs/graphql.md#email-standing): the person's standing afterwards. */
  async lift(workspaceId: string, who: string, kind: 'opted_out' | 'undeliverable'): Promise<EmailStanding> {
    const person = await this.people.byWho(workspaceId, who);
    if (!person) throw new Refusal('no_such_person', 'No record has that address or id: check it.');
    await this.standings.lift(workspaceId, person.id, kind);
    return this.of(workspaceId, person);
  }

  /** The person's preference page, the address List-Unsubscribe names (docs/security.md#the-preferences-link). */
  preferencesUrl(workspaceId: string, personId: string, listId?: string): string {
    return preferencesUrl(
      this.config.baseUrl,
      { workspaceId, personId, ...(listId ? { listId } : {}) },
      this.config.appSecret,
    );
  }
}
