// The outbox payload of each happening (decisions.md section 6): data per trigger that applies,
// most specific first, so each webhook address gets the most specific trigger it listens to.
import type { Happening, HappeningKind } from '@app/core';

export type TriggerData = Partial<Record<HappeningKind, Record<string, unknown>>>;

export function happening(workspaceId: string, personId: string, at: Date, data: TriggerData): Happening {
  const kind = Object.keys(data)[0] as HappeningKind;
  return { workspaceId, kind, personId, payload: { at: at.toISOString(), data } };
}

export function eventData(row: { id: string; type: string; occurred_at: string; value: number | null; properties: Record<string, unknown> | null }) {
  return {
    event: row.type,
    id: row.id,
    occurred_at: row.occurred_at,
    ...(row.value !== null ? { value: row.value } : {}),
    ...(row.properties ? { properties: row.properties } : {}),
  };
}
