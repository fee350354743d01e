// How long each kind of row is kept (docs/operations.md#health-and-metrics lists them): each owner names
// its own period beside its sweep, which deletes what is older.
export const DAY_MS = 24 * 3600 * 1000;

/** The moment before which rows kept `keptMs` are deleted. */
export function retainedSince(keptMs: number, now = Date.now()): Date {
  return new Date(now - keptMs);
}
