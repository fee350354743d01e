// Double opt-in's confirmation (docs/decisions.md#double-opt-in-confirms-by-a-post): the POST of the Confirm button on
// the confirmation page turns a pending subscription into a subscribed one, and only then does the person join the
// list: the timeline row subscribed, the trigger (webhooks, automations) and the engagement. The sweep removes a
// pending subscription left unconfirmed for PENDING_KEPT_DAYS.
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, DAY_MS, SYSTEM_CLOCK } from '@app/platform';
import { OutboxWriter } from '@app/outbox';
import { ConfirmationsRepository, type ListRow, PENDING_KEPT_DAYS, PeopleRepository } from '@app/people';
import { IngestLog } from '../ingest/ingest-log';
import { TimelineRepository } from '../timeline.repository';
import { recordSubscription } from './subscription-record';
import { SegmentMembership } from '../segments/membership.service';

export interface ConfirmationResult {
  /** confirmed now; already_subscribed when confirmed before; not_pending when there is nothing to confirm. */
  status: 'confirmed' | 'already_subscribed' | 'not_pending';
  list?: ListRow;
}

@Injectable()
export class ConfirmationService {
  constructor(
    private readonly confirmations: ConfirmationsRepository,
    private readonly people: PeopleRepository,
    private readonly timeline: TimelineRepository,
    private readonly outbox: OutboxWriter,
    private readonly segments: SegmentMembership,
    @Inject(CLOCK) private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /** Confirms the person's pending subscription to the list, recording the time and `ip`, in one transaction. */
  async confirm(workspaceId: string, personId: string, listId: string, ip: string | null): Promise<ConfirmationResult> {
    const at = new Date(this.clock.now());
    const result = await this.confirmations.transaction(async (m): Promise<ConfirmationResult> => {
      const person = await this.people.lockPerson(m, workspaceId, personId);
      if (!person) return { status: 'not_pending' };
      const list = await this.confirmations.confirm(m, { workspaceId, personId: person.id, listId, at, ip });
      if (!list) {
        const now = await this.confirmations.read(workspaceId, person.id, listId, m);
        return { status: now?.status === 'subscribed' ? 'already_subscribed' : 'not_pending' };
      }
      await this.people.markEngaged(m, workspaceId, person.id, at);
      const log = new IngestLog(workspaceId, at);
      recordSubscription(log, person.id, list, at);
      await this.timeline.insertRows(m, log.rows);
      await this.outbox.write(m, log.happenings);
      await this.segments.refresh(m, workspaceId, [person.id], { locked: true });
      return { status: 'confirmed', list };
    });
    if (result.status === 'confirmed') this.outbox.kick();
    return result;
  }

  /** The sweep's work: removes the pending subscriptions older than PENDING_KEPT_DAYS; answers how many. */
  removeUnconfirmed(): Promise<number> {
    return this.confirmations.removeUnconfirmed(new Date(this.clock.now() - PENDING_KEPT_DAYS * DAY_MS));
  }
}
