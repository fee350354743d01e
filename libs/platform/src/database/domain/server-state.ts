// docs/decisions.md#a-busy-database-is-not-a-dead-one: whether a database server that keeps a statement
// waiting is down or only slow. It is asked SELECT 1 on the watch's own connection; it is down when it
// refuses a connection, or when that question has gone unanswered for `probeMisses` timeouts in a row
// with nothing else answered on the pool meanwhile. A late answer, or any statement of the pool answered
// meanwhile, says the server is alive: slow, not down.

/** The watch's thresholds (DATABASE_STALL_MS, DATABASE_PROBE_TIMEOUT_MS, DATABASE_PROBE_MISSES). */
export interface WatchSettings {
  /** A statement waiting this long has the server asked SELECT 1; also the pause between questions. */
  stallMs: number;
  /** How long a question waits for its answer before it counts as a miss. */
  probeTimeoutMs: number;
  /** Misses in a row, with nothing answered on the pool meanwhile, that make the server down. */
  probeMisses: number;
}

/** The defaults of docs/configuration.md#settings: a frozen server is found 3 s after a statement went out. */
export const DEFAULT_WATCH_SETTINGS: WatchSettings = Object.freeze({
  stallMs: 1_000,
  probeTimeoutMs: 1_000,
  probeMisses: 2,
});

/** What the watch has heard from the server, in its clock's milliseconds. */
export interface ServerHeard {
  /** When the question now waiting was first asked (connecting included); null when none waits. */
  askedAt: number | null;
  /** When it was last sent: again on a new connection when the first seemed stuck (questionLost). */
  sentAt: number | null;
  /** When the server last answered anything: a question, a statement of the pool, a new connection. */
  heardAt: number;
  /** The server refused a connection (refused, reset, shutting down): a definite answer, not a silence. */
  refused: boolean;
}

/** answering: nothing waits, or the question is within its timeout; slow: it missed, but the server is not down. */
export type ServerState = 'answering' | 'slow' | 'down';

/** The misses of the question waiting: whole timeouts since it went out, or since the server last answered. */
export function missesOf(heard: ServerHeard, now: number, settings: WatchSettings): number {
  if (heard.askedAt === null) return 0;
  const silentSince = Math.max(heard.askedAt, heard.heardAt);
  return Math.max(0, Math.floor((now - silentSince) / settings.probeTimeoutMs));
}

export function serverState(heard: ServerHeard, now: number, settings: WatchSettings): ServerState {
  if (heard.refused) return 'down';
  const misses = missesOf(heard, now, settings);
  if (misses >= settings.probeMisses) return 'down';
  return heard.askedAt !== null && now - heard.askedAt >= settings.probeTimeoutMs ? 'slow' : 'answering';
}

/** The longest silence a server is given before it counts as down (the log line's "no answer within"). */
export function silenceAllowedMs(settings: WatchSettings): number {
  return settings.probeTimeoutMs * settings.probeMisses;
}

/**
 * The question has waited the whole allowance while the pool answered meanwhile: its connection, not the server, is
 * stuck, so the question is asked again on a new one.
 */
export function questionLost(heard: ServerHeard, now: number, settings: WatchSettings): boolean {
  if (heard.sentAt === null || serverState(heard, now, settings) === 'down') return false;
  return now - heard.sentAt >= silenceAllowedMs(settings);
}
