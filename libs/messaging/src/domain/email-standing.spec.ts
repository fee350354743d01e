import { isPermanentBounce, sendStandingRefusal, standingOptOut, standingUndeliverable } from './email-standing';

const at = (day: number) => new Date(Date.UTC(2026, 11, day));

describe('an opt-out stands until the person subscribes again', () => {
  const optOut = { at: at(10), via: 'one_click' as const };

  it('stands with no subscription, or with subscriptions older than it or withdrawn', () => {
    expect(standingOptOut([optOut], [])).toEqual(optOut);
    expect(standingOptOut([optOut], [{ status: 'subscribed', granted_at: at(1) }])).toEqual(optOut);
    expect(standingOptOut([optOut], [{ status: 'unsubscribed', granted_at: at(11) }])).toEqual(optOut);
    expect(standingOptOut([optOut], [{ status: 'pending', granted_at: at(11) }])).toEqual(optOut);
  });

  it('is lifted by a consent given after it', () => {
    expect(standingOptOut([optOut], [{ status: 'subscribed', granted_at: at(11).toISOString() }])).toBeNull();
  });

  it('the latest of several opt-outs is the one that counts', () => {
    const later = { at: at(12), via: 'complaint' as const };
    expect(standingOptOut([later, optOut], [{ status: 'subscribed', granted_at: at(11) }])).toEqual(later);
    expect(standingOptOut([], [])).toBeNull();
  });
});

describe('an undeliverable mark holds for the address it names', () => {
  const mark = { at: at(3), address: 'ada@example.com', messageId: 'msg_1' };
  it('holds while the person has that address, and is lifted by another', () => {
    expect(standingUndeliverable([mark], 'Ada@Example.com')).toEqual(mark);
    expect(standingUndeliverable([mark], 'ada@new.example')).toBeNull();
    expect(standingUndeliverable([mark], null)).toBeNull();
  });
});

describe('a send is refused opted_out, then undeliverable, each with a sentence naming the fix', () => {
  it('names the code and the way back', () => {
    const opted = sendStandingRefusal({ at: at(10), via: 'one_click' }, null)!;
    expect(opted.code).toBe('opted_out');
    expect(opted.message).toMatch(/subscribe to a list again or an owner or admin lifts/);
    const bounced = sendStandingRefusal(null, { at: at(3), address: 'ada@example.com', messageId: null })!;
    expect(bounced.code).toBe('undeliverable');
    expect(bounced.message).toMatch(/another address/);
    expect(sendStandingRefusal(null, null)).toBeNull();
  });
});

describe('only a permanent bounce marks the address', () => {
  it.each([
    [{ bounce: { type: 'Permanent', subType: 'General' } }, true],
    [{ bounce: { type: 'permanent' } }, true],
    [{}, true],
    [{ bounce: { message: 'no such user' } }, true],
    [{ bounce: { type: 'Transient', subType: 'MailboxFull' } }, false],
    [{ bounce: { type: 'Undetermined' } }, false],
  ])('%j -> %s', (data, permanent) => expect(isPermanentBounce(data)).toBe(permanent));
});
