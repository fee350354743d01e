// The expiry of events past their expires_at (docs/rest.md#events), with their people's segments: in the
// delete's transaction, so an expired event that made someone a member takes them out as it goes.
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AppConfig, type Clock, CLOCK, CONFIG } from '@app/platform';
import { TimelineRepository } from '../../timeline.repository';
import { lockPeople } from '../membership.repository';
import { SegmentMembership } from '../membership.service';
import { FillRepository } from './fill.repository';

@Injectable()
export class ExpirySweep {
  constructor(
    private readonly timeline: TimelineRepository,
    private readonly fills: FillRepository,
    private readonly membership: SegmentMembership,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The sweep: answers the events deleted. The people are locked before their events go, in the order every
   * writer takes them (person, then events), so the sweep never waits on a merge that waits on it.
   */
  sweep(): Promise<number> {
    const now = new Date(this.clock.now());
    return this.fills.transaction(async (m) => {
      for (const due of await this.timeline.expiring(m, now)) {
        await lockPeople(m, due.workspace_id, [...due.people].sort());
      }
      let deleted = 0;
      for (const expired of await this.timeline.expire(m, now)) {
        deleted += expired.deleted;
        await this.refresh(m, expired.workspace_id, [...(expired.people ?? [])].sort());
      }
      return deleted;
    });
  }

  private async refresh(m: EntityManager, workspaceId: string, people: string[]): Promise<void> {
    const chunk = this.config.segmentFillChunk;
    for (let i = 0; i < people.length; i += chunk) {
      await this.membership.refresh(m, workspaceId, people.slice(i, i + chunk));
    }
  }
}
