// docs/rest.md#every-event-out-as-a-stream: one timeline row as a line of the export, as PostgreSQL writes it
// (events-export.repository.ts): the row's JSON columns go into the line as their text.

/** One line of the export: a timeline row and its person's identities as they are when it is read. */
export interface ExportedEvent {
  id: string;
  type: string;
  /** ISO 8601 in UTC, with microseconds where the row has them. */
  occurred_at: string;
  /** The person's record id. */
  person_id: string;
  /** The person's identities when the line was read, by kind (each list possibly empty). */
  identities: { email: string[]; anon_id: string[]; account_id: string[] };
  value: number | null;
  properties: Record<string, unknown> | null;
  detail: string | null;
  source: Record<string, unknown> | null;
  /** Pass as after, with the same from and to, to resume just after this line. */
  cursor: string;
}
