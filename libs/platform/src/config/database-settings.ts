// DATABASE_URL and DATABASE_READ_URL (docs/configuration.md#settings): one postgres:// address, or libpq's list of
// hosts with target_session_attrs (docs/operations.md#failover). A list that cannot be read, or that could put the
// service's writes on a standby, stops the start with a sentence naming the setting.
import { hostListOf } from '../database/domain/host-list';
import { ConfigError } from './config';

const SHAPE = 'a URL starting with postgres: or postgresql:';
const LIST =
  'several hosts written as libpq writes them: ' +
  'postgres://user@10.0.0.1:5432,10.0.0.2:5432/lifeline?target_session_attrs=read-write';
/** Where the service writes: a session that refuses writes would refuse every post. */
const WRITABLE = ['read-write', 'primary', 'any'];

/** The address as given, once it reads as PostgreSQL's (a list of hosts included); `writes`: it is DATABASE_URL. */
export function databaseAddress(name: string, raw: string, writes: boolean): string {
  const list = hostListOf(raw);
  if (!/^postgres(ql)?:\/\//i.test(raw)) throw new ConfigError(`${name} must be ${SHAPE}, not "${raw}".`);
  if ('problem' in list) throw new ConfigError(`${name} must be ${SHAPE}, with ${LIST}; ${list.problem}.`);
  try {
    new URL(list.urls[0]);
  } catch {
    throw new ConfigError(`${name} must be ${SHAPE}, with ${LIST}; "${list.urls[0]}" is not one.`);
  }
  if (writes && !WRITABLE.includes(list.target)) {
    throw new ConfigError(
      `${name} is where the service writes, so its target_session_attrs must be read-write or primary, ` +
        `not ${list.target} (a standby belongs in DATABASE_READ_URL).`,
    );
  }
  if (writes && list.hosts.length > 1 && list.target === 'any') {
    throw new ConfigError(
      `${name} lists several hosts: add target_session_attrs=read-write so each connection finds the primary ` +
        'among them (without it, the first host that answers is taken, a standby included).',
    );
  }
  return raw;
}
