// The event data of a timeline row's happening (decisions.md section 6); the builder is the outbox's happening().
export function eventData(row: { id: string; type: string; occurred_at: string; value: number | null; properties: Record<string, unknown> | null }) {
  return {
    event: row.type,
    id: row.id,
    occurred_at: row.occurred_at,
    ...(row.value !== null ? { value: row.value } : {}),
    ...(row.properties ? { properties: row.properties } : {}),
  };
}
