import { erasedRecordHash, suppressionHash, suppressionProbes } from './suppression';

const secret = 'a-deployment-secret-of-32-characters!';

it('hashes one key the same way every time, and differently per workspace, kind, value and secret', () => {
  const key = { kind: 'email', value: 'ada@example.com' } as const;
  const hash = suppressionHash(secret, 'ws_1', key);
  expect(suppressionHash(secret, 'ws_1', { ...key })).toBe(hash);
  expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(hash).not.toContain('ada');
  expect(suppressionHash(secret, 'ws_2', key)).not.toBe(hash);
  expect(suppressionHash(secret, 'ws_1', { kind: 'account_id', value: 'ada@example.com' })).not.toBe(hash);
  expect(suppressionHash(secret, 'ws_1', { kind: 'email', value: 'ada@example.org' })).not.toBe(hash);
  expect(suppressionHash(`${secret}x`, 'ws_1', key)).not.toBe(hash);
});

it('never confuses a workspace and value that run together', () => {
  expect(suppressionHash(secret, 'ws_1', { kind: 'anon_id', value: 'a' })).not.toBe(
    suppressionHash(secret, 'ws_1a', { kind: 'anon_id', value: '' }),
  );
});

it('hashes a record id for the erasure log apart from any identity hash', () => {
  expect(erasedRecordHash(secret, 'ws_1', 'per_1')).not.toBe(
    suppressionHash(secret, 'ws_1', { kind: 'account_id', value: 'per_1' }),
  );
  expect(erasedRecordHash(secret, 'ws_1', 'per_1')).toBe(erasedRecordHash(secret, 'ws_1', 'per_1'));
});

it('checks a key as itself and as its value under the other kinds, an email-shaped value as a normalized email', () => {
  expect(suppressionProbes({ kind: 'anon_id', value: 'acct-91' })).toEqual([
    { kind: 'anon_id', value: 'acct-91' },
    { kind: 'account_id', value: 'acct-91' },
  ]);
  expect(suppressionProbes({ kind: 'account_id', value: 'Ada@Example.com' })).toEqual([
    { kind: 'account_id', value: 'Ada@Example.com' },
    { kind: 'anon_id', value: 'Ada@Example.com' },
    { kind: 'email', value: 'ada@example.com' },
  ]);
  expect(suppressionProbes({ kind: 'email', value: 'ada@example.com' })).toEqual([
    { kind: 'email', value: 'ada@example.com' },
    { kind: 'account_id', value: 'ada@example.com' },
    { kind: 'anon_id', value: 'ada@example.com' },
  ]);
});
