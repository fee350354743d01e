// docs/operations.md#failover: DATABASE_URL and DATABASE_READ_URL in libpq's multi-host form,
// postgres://user@h1:5432,h2:5432/db?target_session_attrs=read-write. Each new connection tries the hosts in
// the order given and keeps the first whose session is of the kind target_session_attrs asks for, read the way
// libpq reads it: read-write and read-only by transaction_read_only, primary and standby by
// pg_is_in_recovery(), prefer-standby a standby if any answers, else any host.

export const TARGET_SESSIONS = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'] as const;
export type TargetSession = (typeof TARGET_SESSIONS)[number];

export interface DatabaseHost {
  host: string;
  port: number;
}

export interface HostList {
  hosts: DatabaseHost[];
  target: TargetSession;
  /** The address of each host alone, in order: user, database and parameters kept, target_session_attrs taken out. */
  urls: string[];
}

/** What a session says of itself once connected. */
export interface SessionState {
  /** SHOW transaction_read_only is on: a standby, or a server whose default is read-only. */
  readOnly: boolean;
  /** pg_is_in_recovery(): a standby. */
  inRecovery: boolean;
}

const DEFAULT_PORT = 5432;
const URL_PARTS = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/i;
const HOST_PORT = /^(?:\[([0-9a-f:.%]+)\]|([^:[\]\s]+))(?::(\d{1,5}))?$/i;

/** One host of the list, or why it is not one. */
function hostOf(item: string): DatabaseHost | string {
  const match = HOST_PORT.exec(item);
  if (!match) return `"${item}" is not a host or host:port`;
  const port = match[3] === undefined ? DEFAULT_PORT : Number(match[3]);
  if (port < 1 || port > 65535) return `"${item}" has no port from 1 to 65535`;
  return { host: match[1] ?? match[2], port };
}

/** The query's target_session_attrs (removed from it), or why it is not one libpq knows. */
function targetOf(query: URLSearchParams): { target: TargetSession } | { problem: string } {
  const values = query.getAll('target_session_attrs');
  query.delete('target_session_attrs');
  if (values.length > 1) return { problem: 'target_session_attrs is given more than once' };
  const target = values[0] ?? 'any';
  if (!(TARGET_SESSIONS as readonly string[]).includes(target))
    return { problem: `target_session_attrs must be one of ${TARGET_SESSIONS.join(', ')}, not "${target}"` };
  return { target: target as TargetSession };
}

/**
 * The hosts of a postgres:// address and the session each connection must find, or the sentence saying what is wrong
 * with it. A single host is the address as it was (its own `?host=` and all), target_session_attrs taken out.
 */
export function hostListOf(url: string): HostList | { problem: string } {
  const parts = URL_PARTS.exec(url);
  if (!parts) return { problem: 'it is not a postgres:// address' };
  const [, scheme, user, hostPart, rest] = parts;
  const queryAt = rest.indexOf('?');
  const path = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : rest.slice(queryAt + 1));
  const named = query.has('target_session_attrs');
  const targeted = targetOf(query);
  if ('problem' in targeted) return targeted;
  const { target } = targeted;
  // the parameters as written, unless target_session_attrs had to be taken out
  const search = !named ? rest.slice(path.length) : query.toString() ? `?${query.toString()}` : '';
  const prefix = `${scheme}${user === undefined ? '' : `${user}@`}`;
  const items = hostPart.split(',');
  if (items.length === 1) {
    const one = hostOf(hostPart);
    const host = typeof one === 'string' ? { host: hostPart, port: DEFAULT_PORT } : one;
    return { hosts: [host], target, urls: [`${prefix}${hostPart}${path}${search}`] };
  }
  const hosts: DatabaseHost[] = [];
  for (const item of items) {
    if (item.trim() === '') return { problem: 'its host list has an empty entry (two commas, or one at an end)' };
    const host = hostOf(item.trim());
    if (typeof host === 'string') return { problem: `in its host list, ${host}` };
    hosts.push(host);
  }
  const urls = hosts.map(
    ({ host, port }) => `${prefix}${host.includes(':') ? `[${host}]` : host}:${port}${path}${search}`,
  );
  return { hosts, target, urls };
}

/** Whether a connection must ask its session what it is before it keeps it. */
export function checksSession(list: HostList): boolean {
  return list.target !== 'any';
}

/** The rounds of tries over the hosts, each with the kind of session it keeps: prefer-standby is two. */
export function roundsOf(target: TargetSession): TargetSession[] {
  return target === 'prefer-standby' ? ['standby', 'any'] : [target];
}

/** Whether a session is of the kind a round keeps. */
export function sessionFits(round: TargetSession, state: SessionState): boolean {
  switch (round) {
    case 'read-write':
      return !state.readOnly;
    case 'read-only':
      return state.readOnly;
    case 'primary':
      return !state.inRecovery;
    case 'standby':
    case 'prefer-standby':
      return state.inRecovery;
    case 'any':
      return true;
  }
}

/** The list as a sentence names it: host:port, host:port. */
export function hostsNamed(list: Pick<HostList, 'hosts'>): string {
  return list.hosts.map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`).join(', ');
}
