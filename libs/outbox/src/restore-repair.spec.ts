import { restoreLagOf } from './restore-repair';

describe('restoreLagOf: what a restore onto a server whose counter is behind left to repair', () => {
  it.each([
    ['the mark past the next xid: a new write would sort behind it', 5000n, 5100n, 800n, 'mark-ahead'],
    ['the mark at the next xid (the next writer would share its xid)', 800n, 800n, 800n, 'mark-ahead'],
    ['the mark past the next xid with an empty outbox', 5000n, null, 800n, 'mark-ahead'],
    ['the mark behind the counter, a restored row at or past it', 700n, 800n, 800n, 'rows-ahead'],
    ['the mark and every row behind the counter (the same server, or one ahead)', 700n, 799n, 800n, 'none'],
    ['an empty outbox, the mark as the migration left it', 1n, null, 3n, 'none'],
  ] as const)('%s', (_case, markXid, topXid, nextXid, lag) => {
    expect(restoreLagOf(markXid, topXid, nextXid)).toBe(lag);
  });
});
