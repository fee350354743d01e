// Taking a person off lists outside the events endpoint (docs/rest.md#coming-off-a-list): the console and
// GraphQL, the tool door, and messaging's one-click links, preference page, bounces and complaints.
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CLOCK, type Clock, Refusal, SYSTEM_CLOCK } from '@app/platform';
import { OutboxWriter } from '@app/outbox';
import { cameOff, type ListRow, PeopleRepository, SubscriptionsRepository, type WithdrawnVia } from '@app/people';
import { IngestLog } from '../ingest/ingest-log';
import { TimelineRepository } from '../timeline.repository';
import { recordWithdrawal } from './withdrawal-record';
import { SegmentMembership } from '../segments/membership.service';

/** Which lists: one by id or by address, or every list the person is on. */
export type UnsubscribeFrom = { listId: string } | { list: string } | { all: true };

/** How: the way it happened and the withdrawing ip where there is one. */
export interface UnsubscribeHow {
  via: WithdrawnVia;
  ip?: string | null;
}

export interface UnsubscribeResult {
  /** unsubscribed when any subscription changed, else not_subscribed. */
  status: 'unsubscribed' | 'not_subscribed';
  /** The person it was applied to (an absorbed id leads to the person it became). */
  personId: string;
  /** The lists the person came off (those that were pending included). */
  lists: ListRow[];
}

@Injectable()
export class UnsubscribeService {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly people: PeopleRepository,
    private readonly timeline: TimelineRepository,
    private readonly outbox: OutboxWriter,
    private readonly segments: SegmentMembership,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /**
   * Takes the person off the list (or all of theirs) in one transaction: the subscriptions keep their consent and
   * gain the withdrawal, and each list they were subscribed to gets the timeline row unsubscribed and the
   * happening that fires the unsubscribed trigger to webhooks and automations (data: list and via). A pending
   * subscription is withdrawn quietly. With `m`, runs in the caller's transaction, and the caller calls
   * OutboxWriter.kick() once it commits. Refuses no_such_person and unknown_list; changes nothing then.
   */
  async unsubscribe(
    workspaceId: string,
    personId: string,
    from: UnsubscribeFrom,
    how: UnsubscribeHow,
    m?: EntityManager,
  ): Promise<UnsubscribeResult> {
    if (!m) {
      const result = await this.subscriptions.transaction((t) => this.unsubscribe(workspaceId, personId, from, how, t));
      if (result.status === 'unsubscribed') this.outbox.kick();
      return result;
    }
    const person = await this.people.lockPerson(m, workspaceId, personId);
    if (!person) throw new Refusal('no_such_person', `No record has the id "${personId.slice(0, 80)}": check it.`);
    const listIds = 'all' in from ? null : [(await this.listOf(m, workspaceId, from)).id];
    const at = new Date(this.clock.now());
    const changed = await this.subscriptions.withdraw(m, {
      workspaceId,
      personId: person.id,
      listIds,
      via: how.via,
      ip: how.ip ?? null,
      at,
    });
    const log = new IngestLog(workspaceId, at);
    for (const list of changed) if (cameOff(list.was)) recordWithdrawal(log, person.id, list, how.via, at);
    await this.timeline.insertRows(m, log.rows);
    await this.outbox.write(m, log.happenings);
    if (changed.length) await this.segments.refresh(m, workspaceId, [person.id], { locked: true });
    return {
      status: changed.length ? 'unsubscribed' : 'not_subscribed',
      personId: person.id,
      lists: changed.map(({ id, address, name }) => ({ id, address, name })),
    };
  }

  private async listOf(m: EntityManager, workspaceId: string, from: { listId: string } | { list: string }) {
    const list =
      'listId' in from
        ? await this.subscriptions.list(m, workspaceId, from.listId)
        : (await this.people.findLists(m, workspaceId, [from.list]))[0];
    const named = 'listId' in from ? `id "${from.listId.slice(0, 80)}"` : `address "${from.list.slice(0, 80)}"`;
    if (!list) throw new Refusal('unknown_list', `No list has the ${named}: list them with lists.`);
    return list;
  }
}
