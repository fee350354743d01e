import { HostList, hostListOf, hostsNamed, roundsOf, SessionState, sessionFits } from './host-list';

const list = (url: string) => hostListOf(url) as HostList;
const standby: SessionState = { readOnly: true, inRecovery: true };
const primary: SessionState = { readOnly: false, inRecovery: false };
/** A primary whose default_transaction_read_only is on (fenced, or being demoted). */
const readOnlyPrimary: SessionState = { readOnly: true, inRecovery: false };

describe('a multi-host address names the hosts in order and the session to keep (docs/operations.md#failover)', () => {
  it('reads host:port pairs in order, with the address of each alone, target_session_attrs taken out', () => {
    expect(
      list(
        'postgres://app:s3cret@10.0.0.1:5432,10.0.0.2:6432/lifeline?target_session_attrs=read-write&sslmode=require',
      ),
    ).toEqual({
      hosts: [
        { host: '10.0.0.1', port: 5432 },
        { host: '10.0.0.2', port: 6432 },
      ],
      target: 'read-write',
      urls: [
        'postgres://app:s3cret@10.0.0.1:5432/lifeline?sslmode=require',
        'postgres://app:s3cret@10.0.0.2:6432/lifeline?sslmode=require',
      ],
    });
  });

  it('a host without a port is on 5432; an IPv6 address is written in brackets', () => {
    const { hosts, urls } = list('postgresql://db-a,[::1]:5433,[fd00::2]/app?target_session_attrs=primary');
    expect(hosts).toEqual([
      { host: 'db-a', port: 5432 },
      { host: '::1', port: 5433 },
      { host: 'fd00::2', port: 5432 },
    ]);
    expect(urls).toEqual([
      'postgresql://db-a:5432/app',
      'postgresql://[::1]:5433/app',
      'postgresql://[fd00::2]:5432/app',
    ]);
    expect(hostsNamed({ hosts })).toBe('db-a:5432, [::1]:5433, [fd00::2]:5432');
  });

  it('one host is the address as written, any session kept unless target_session_attrs says otherwise', () => {
    expect(list('postgres://postgres@127.0.0.1:5432/lifeline?options=-c%20x')).toEqual({
      hosts: [{ host: '127.0.0.1', port: 5432 }],
      target: 'any',
      urls: ['postgres://postgres@127.0.0.1:5432/lifeline?options=-c%20x'],
    });
    expect(list('postgres:///lifeline?host=/var/run/postgresql')).toMatchObject({
      target: 'any',
      urls: ['postgres:///lifeline?host=/var/run/postgresql'],
    });
    expect(list('postgres://db/x?target_session_attrs=standby').urls).toEqual(['postgres://db/x']);
  });

  it.each([
    ['postgres://a:5432,,b:5432/db?target_session_attrs=read-write', /empty entry/],
    ['postgres://a:5432,b:5432,/db', /empty entry/],
    ['postgres://a:5432,b:port/db', /"b:port" is not a host or host:port/],
    ['postgres://a:5432,b:70000/db', /"b:70000" has no port from 1 to 65535/],
    ['postgres://a,b/db?target_session_attrs=master', /must be one of any, read-write, .*not "master"/],
    ['postgres://a,b/db?target_session_attrs=any&target_session_attrs=primary', /more than once/],
    ['mysql://a,b/db', /not a postgres:\/\/ address/],
  ])('refuses %s, saying what is wrong', (url, problem) => {
    const answer = hostListOf(url);
    expect(answer).toEqual({ problem: expect.stringMatching(problem) });
  });
});

describe("which session a connection keeps, as libpq's target_session_attrs reads it", () => {
  it.each([
    ['any', standby, true],
    ['any', primary, true],
    ['read-write', primary, true],
    ['read-write', standby, false],
    ['read-write', readOnlyPrimary, false],
    ['read-only', standby, true],
    ['read-only', readOnlyPrimary, true],
    ['read-only', primary, false],
    ['primary', primary, true],
    ['primary', readOnlyPrimary, true],
    ['primary', standby, false],
    ['standby', standby, true],
    ['standby', primary, false],
  ] as const)('%s keeps %o: %s', (round, state, kept) => {
    expect(sessionFits(round, state)).toBe(kept);
  });

  it('prefer-standby is a round for standbys, then a round taking any host', () => {
    expect(roundsOf('prefer-standby')).toEqual(['standby', 'any']);
    expect(roundsOf('read-write')).toEqual(['read-write']);
  });
});
