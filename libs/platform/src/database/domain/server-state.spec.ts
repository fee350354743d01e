import {
  DEFAULT_WATCH_SETTINGS,
  missesOf,
  questionLost,
  ServerHeard,
  serverState,
  silenceAllowedMs,
  WatchSettings,
} from './server-state';

const settings: WatchSettings = { stallMs: 1_000, probeTimeoutMs: 1_000, probeMisses: 2 };
const asked = (over: Partial<ServerHeard> = {}): ServerHeard => ({
  askedAt: 10_000,
  sentAt: 10_000,
  heardAt: 9_000,
  refused: false,
  ...over,
});

describe('a busy database is not a dead one (docs/decisions.md#a-busy-database-is-not-a-dead-one)', () => {
  it('the defaults find a frozen server 3 s after a statement went out: stall 1 s, then two misses of 1 s', () => {
    expect(DEFAULT_WATCH_SETTINGS).toEqual(settings);
    expect(DEFAULT_WATCH_SETTINGS.stallMs + silenceAllowedMs(DEFAULT_WATCH_SETTINGS)).toBe(3_000);
  });

  it('nothing asked, or a question within its timeout: answering', () => {
    expect(serverState(asked({ askedAt: null, sentAt: null }), 99_999, settings)).toBe('answering');
    expect(serverState(asked(), 10_999, settings)).toBe('answering');
  });

  it('one miss is slow, not down: a server that answers late is alive', () => {
    expect(missesOf(asked(), 11_000, settings)).toBe(1);
    expect(serverState(asked(), 11_999, settings)).toBe('slow');
  });

  it('down after the misses in a row with nothing heard meanwhile', () => {
    expect(serverState(asked(), 12_000, settings)).toBe('down');
    expect(serverState(asked(), 12_000, { ...settings, probeMisses: 3 })).toBe('slow');
    expect(serverState(asked(), 13_000, { ...settings, probeMisses: 3 })).toBe('down');
  });

  it("a statement of the pool answered while the question waits is the server's answer: the misses count from it", () => {
    const heard = asked({ heardAt: 11_500 });
    expect(missesOf(heard, 12_000, settings)).toBe(0);
    expect(serverState(heard, 12_400, settings)).toBe('slow');
    expect(serverState(heard, 12_500, settings)).not.toBe('down');
    expect(serverState(heard, 13_499, settings)).toBe('slow');
    expect(serverState(heard, 13_500, settings)).toBe('down');
  });

  it('a refused connection is a definite answer: down at once', () => {
    expect(serverState(asked({ refused: true }), 10_001, settings)).toBe('down');
  });

  it('a question unanswered for the whole allowance while the pool answers is asked again on a new connection', () => {
    const heard = asked({ heardAt: 11_900 });
    expect(questionLost(heard, 11_999, settings)).toBe(false);
    expect(questionLost(heard, 12_000, settings)).toBe(true);
    // sent again: lost again only a whole allowance later
    expect(questionLost({ ...heard, sentAt: 12_000, heardAt: 13_000 }, 13_999, settings)).toBe(false);
    // the server down is not a lost question
    expect(questionLost(asked(), 12_000, settings)).toBe(false);
  });
});
