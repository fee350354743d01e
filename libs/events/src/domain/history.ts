// docs/decisions.md#history-starts-no-automation: an event is history when it happened well before it
// arrived (more than the workspace's window), or when it came through Segment's /v1/import. History is
// recorded as any event is (timeline, stage, first touch) but starts no automation run; outgoing
// webhooks hear it with data.historical true.

const HOUR_MS = 3_600_000;

/** What decides whether an event is history: when it happened, and whether it came through an import. */
export interface HistoryFacts {
  occurredAt: Date;
  /** Posted to /v1/import (Segment's route for historical data): history whatever its time. */
  imported?: boolean;
}

/** True when the event is history: imported, or its occurred_at more than `windowHours` before `arrivedAt`. */
export function isHistory(event: HistoryFacts, arrivedAt: Date, windowHours: number): boolean {
  if (event.imported) return true;
  return arrivedAt.getTime() - event.occurredAt.getTime() > windowHours * HOUR_MS;
}
