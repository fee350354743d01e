// The workspace at a glance for the console's home page (docs/console.md#home): people by stage, the
// engaged, new people and events today against yesterday at the same time; and the names done most often,
// which the chart page opens on (docs/console.md#charts).
import { Injectable } from '@nestjs/common';
import { DAY_MS, Refusal } from '@app/platform';
import { PeopleTally, PeopleTallyRepository } from '@app/people';
import { Span, todayAndYesterday } from '../domain/day-comparison';
import { EventsTallyRepository, EventTally } from './events-tally.repository';

export interface WorkspaceOverview extends PeopleTally {
  at: Date;
  today: Span;
  yesterday: Span;
  events: { today: number; yesterday: number };
}

/** How far back and how many names frequentEvents may be asked for. */
export const FREQUENT_EVENTS = { days: { default: 30, max: 366 }, first: { default: 5, max: 20 } };

@Injectable()
export class OverviewService {
  constructor(
    private readonly people: PeopleTallyRepository,
    private readonly events: EventsTallyRepository,
  ) {}

  async overview(workspaceId: string, now = new Date()): Promise<WorkspaceOverview> {
    const { today, yesterday } = todayAndYesterday(now);
    const [people, events] = await Promise.all([
      this.people.tally(workspaceId, today, yesterday),
      this.events.inSpans(workspaceId, today, yesterday),
    ]);
    return { ...people, at: now, today, yesterday, events };
  }

  /** The names done most often over the last `days` days (up to now), most first. */
  frequentEvents(workspaceId: string, days: number, first: number, now = new Date()): Promise<EventTally[]> {
    if (!Number.isInteger(days) || days < 1 || days > FREQUENT_EVENTS.days.max)
      throw new Refusal('invalid_field', `Ask for days from 1 to ${FREQUENT_EVENTS.days.max}.`, { field: 'days' });
    if (!Number.isInteger(first) || first < 1 || first > FREQUENT_EVENTS.first.max)
      throw new Refusal('invalid_field', `Ask for first from 1 to ${FREQUENT_EVENTS.first.max}.`, { field: 'first' });
    return this.events.mostFrequent(workspaceId, { from: new Date(now.getTime() - days * DAY_MS), to: now }, first);
  }
}
