import {
  broadcastMessageId,
  domainOf,
  isPermanentFailure,
  listId,
  retryDelayMs,
  skipReason,
  type RecipientNow,
} from './recipient';

describe('skipReason', () => {
  const ok: RecipientNow = {
    person: { email: 'ada@example.com', engaged_at: new Date() },
    inAudience: true,
    audience: 'list',
    optOut: null,
    undeliverable: null,
  };
  const at = new Date('2026-01-01');

  it.each<[string, Partial<RecipientNow>, string | null]>([
    ['may get it', {}, null],
    ['record gone (merged away)', { person: null }, 'merged'],
    ['left the list', { inAudience: false }, 'unsubscribed'],
    ['left the segment', { inAudience: false, audience: 'segment' }, 'left_segment'],
    ['no email', { person: { email: null, engaged_at: at } }, 'no_email'],
    ['not engaged', { person: { email: 'a@b.c', engaged_at: null } }, 'not_engaged'],
    ['opted out', { optOut: { at, via: 'one_click' } }, 'opted_out'],
    ['undeliverable', { undeliverable: { at, address: 'a@b.c', messageId: null } }, 'undeliverable'],
  ])('%s', (_, change, reason) => {
    expect(skipReason({ ...ok, ...change })).toBe(reason);
  });
});

describe('the headers made from the row', () => {
  it("Message-ID is the message id at EMAIL_FROM's domain, the same each time", () => {
    expect(broadcastMessageId('msg_01ABC', 'Acme <news@Mail.Acme.test>')).toBe('<msg_01ABC@mail.acme.test>');
    expect(broadcastMessageId('msg_01ABC', 'news@acme.test')).toBe('<msg_01ABC@acme.test>');
    expect(domainOf('Lifeline <no-reply@localhost>')).toBe('localhost');
    expect(domainOf('nonsense')).toBe('localhost');
  });

  it('List-Id is the audience and the workspace slug under lifeline, lower case, odd characters as dashes', () => {
    expect(listId('news', 'acme')).toBe('<news.acme.lifeline>');
    expect(listId('seg_01ABC', 'acme')).toBe('<seg_01abc.acme.lifeline>');
    expect(listId('Weekly News!', 'acme-co')).toBe('<weekly-news.acme-co.lifeline>');
  });
});

describe('retries', () => {
  it('waits ½, 2 and 8 units, then gives up', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 60_000))).toEqual([30_000, 120_000, 480_000, null]);
  });
  it('a 5xx SMTP reply or a marked provider error is permanent; a 4xx, a timeout or anything else is not', () => {
    expect(isPermanentFailure({ responseCode: 550 })).toBe(true);
    expect(isPermanentFailure(Object.assign(new Error('x'), { permanent: true }))).toBe(true);
    expect(isPermanentFailure({ responseCode: 421 })).toBe(false);
    expect(isPermanentFailure(new Error('ETIMEDOUT'))).toBe(false);
    expect(isPermanentFailure(null)).toBe(false);
  });
});
