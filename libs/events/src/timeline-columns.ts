// The events table's columns as the service writes them, apart from the repositories so the migrations
// (events by month) and the CLI that runs them load no Nest or TypeORM for a string.

/** The columns of a timeline row this service writes (received_at is the database's). */
export const TIMELINE_COLUMNS =
  'workspace_id, id, occurred_at, person_id, type, value, properties, detail, source, expires_at';
