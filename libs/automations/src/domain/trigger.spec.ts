import { Refusal } from '@app/platform';
import { isHistorical, parseTrigger, triggerFacts, triggerMatches } from './trigger';

const signup = { event: { event: 'signup', id: 'evt_1', occurred_at: '2026-01-01T00:00:00.000Z' } };
const custom = { event: { event: 'report_viewed', id: 'evt_2', occurred_at: '2026-01-01T00:00:00.000Z' } };
const enteredAccount = { stage_entered: { stage: 'account', from: null, object: 'person' } };
const erased = { person_erased: {} };
const enteredBuyers = { segment_entered: { segment: { id: 'seg_buyers', name: 'Buyers' } } };
const leftBuyers = { segment_left: { segment: { id: 'seg_buyers', name: 'Buyers' } } };
const joinedNews = {
  subscribed: { list: { address: 'news', name: 'News' } },
  event: { event: 'subscribed', id: 'evt_3', occurred_at: 'x' },
};

describe('triggerMatches: which happenings start an automation', () => {
  it.each([
    ['an event trigger hears its own event name', { kind: 'event', event: 'signup' }, signup, true],
    ['an event trigger hears a custom name', { kind: 'event', event: 'report_viewed' }, custom, true],
    ['an event trigger ignores other names', { kind: 'event', event: 'purchase' }, signup, false],
    ['an event trigger ignores a stage change', { kind: 'event', event: 'signup' }, enteredAccount, false],
    ['stage_entered without a stage hears any stage', { kind: 'stage_entered' }, enteredAccount, true],
    ['stage_entered with a stage hears that stage', { kind: 'stage_entered', stage: 'account' }, enteredAccount, true],
    [
      'stage_entered with a stage ignores another',
      { kind: 'stage_entered', stage: 'purchaser' },
      enteredAccount,
      false,
    ],
    ['stage_entered ignores events', { kind: 'stage_entered' }, signup, false],
    ['subscribed without a list hears any list', { kind: 'subscribed' }, joinedNews, true],
    ['subscribed with a list hears that list', { kind: 'subscribed', list: 'news' }, joinedNews, true],
    ['subscribed with a list ignores another', { kind: 'subscribed', list: 'offers' }, joinedNews, false],
    ['subscribed ignores events', { kind: 'subscribed' }, signup, false],
    ['person_erased hears an erasure', { kind: 'person_erased' }, erased, true],
    ['person_erased ignores events', { kind: 'person_erased' }, signup, false],
    ['an event trigger ignores an erasure', { kind: 'event', event: 'signup' }, erased, false],
    ['webhook is never started by a happening', { kind: 'webhook' }, signup, false],
    ['segment_entered without a segment hears any segment', { kind: 'segment_entered' }, enteredBuyers, true],
    [
      'segment_entered with a segment hears that segment',
      { kind: 'segment_entered', segment: 'seg_buyers' },
      enteredBuyers,
      true,
    ],
    [
      'segment_entered with a segment ignores another',
      { kind: 'segment_entered', segment: 'seg_trials' },
      enteredBuyers,
      false,
    ],
    ['segment_entered ignores a segment left', { kind: 'segment_entered' }, leftBuyers, false],
    ['segment_left hears a segment left', { kind: 'segment_left', segment: 'seg_buyers' }, leftBuyers, true],
    ['segment_left ignores a segment entered', { kind: 'segment_left' }, enteredBuyers, false],
    ['segment_left ignores events', { kind: 'segment_left' }, signup, false],
    ['an event trigger ignores a segment entered', { kind: 'event', event: 'signup' }, enteredBuyers, false],
    ['stage_entered ignores a segment entered', { kind: 'stage_entered' }, enteredBuyers, false],
  ] as const)('%s', (_name, trigger, data, expected) => {
    expect(triggerMatches(trigger as any, data as any)).toBe(expected);
  });
});

describe('isHistorical: a happening of history starts no run, whatever its trigger', () => {
  it('an event, a stage change or a list join marked historical is history; unmarked ones are not', () => {
    expect(isHistorical({ event: { ...signup.event, historical: true } })).toBe(true);
    expect(isHistorical({ stage_entered: { ...enteredAccount.stage_entered, historical: true } })).toBe(true);
    expect(isHistorical({ ...joinedNews, subscribed: { ...joinedNews.subscribed, historical: true } })).toBe(true);
    expect(isHistorical(signup)).toBe(false);
    expect(isHistorical(enteredAccount)).toBe(false);
    expect(isHistorical({ event: { ...signup.event, historical: 'yes' } })).toBe(false);
  });
});

describe('parseTrigger: the trigger is checked when saved', () => {
  it.each([
    [
      { kind: 'event', event: 'signup' },
      { kind: 'event', event: 'signup' },
    ],
    [
      { kind: 'event', event: 'report_viewed' },
      { kind: 'event', event: 'report_viewed' },
    ],
    [{ kind: 'stage_entered' }, { kind: 'stage_entered' }],
    [
      { kind: 'stage_entered', stage: ' Account ' },
      { kind: 'stage_entered', stage: 'account' },
    ],
    [
      { kind: 'subscribed', list: 'news' },
      { kind: 'subscribed', list: 'news' },
    ],
    [{ kind: 'subscribed', list: null }, { kind: 'subscribed' }],
    [{ kind: 'webhook' }, { kind: 'webhook' }],
    [{ kind: 'person_erased' }, { kind: 'person_erased' }],
    [{ kind: 'segment_entered' }, { kind: 'segment_entered' }],
    [
      { kind: 'segment_entered', segment: ' seg_buyers ' },
      { kind: 'segment_entered', segment: 'seg_buyers' },
    ],
    [
      { kind: 'segment_left', segment: 'seg_buyers' },
      { kind: 'segment_left', segment: 'seg_buyers' },
    ],
    [{ kind: 'segment_left', segment: null }, { kind: 'segment_left' }],
  ])('accepts %j', (raw, expected) => {
    expect(parseTrigger(raw)).toEqual(expected);
  });

  it.each([
    ['an unknown kind', { kind: 'purchase' }, 'invalid_field', 'trigger.kind'],
    ['no kind', {}, 'invalid_field', 'trigger.kind'],
    ['an event trigger without a name', { kind: 'event' }, 'unknown_event', 'trigger.event'],
    ['an event name that is no name', { kind: 'event', event: 'Not A Name' }, 'unknown_event', 'trigger.event'],
    ['a reserved name', { kind: 'event', event: 'email_sent' }, 'reserved_event_name', 'trigger.event'],
    ['an unknown stage', { kind: 'stage_entered', stage: 'vip' }, 'invalid_field', 'trigger.stage'],
    ['an empty list', { kind: 'subscribed', list: ' ' }, 'invalid_field', 'trigger.list'],
    ['a field of another kind', { kind: 'webhook', event: 'signup' }, 'invalid_field', 'trigger.event'],
    ['a list on an erasure trigger', { kind: 'person_erased', list: 'news' }, 'invalid_field', 'trigger.list'],
    ['an empty segment', { kind: 'segment_entered', segment: ' ' }, 'invalid_field', 'trigger.segment'],
    ['a segment that is no text', { kind: 'segment_left', segment: 7 }, 'invalid_field', 'trigger.segment'],
    ['a segment on a stage trigger', { kind: 'stage_entered', segment: 'seg_1' }, 'invalid_field', 'trigger.segment'],
    ['a list on a segment trigger', { kind: 'segment_entered', list: 'news' }, 'invalid_field', 'trigger.list'],
    [
      'a stage on an event trigger',
      { kind: 'event', event: 'signup', stage: 'account' },
      'invalid_field',
      'trigger.stage',
    ],
  ])('refuses %s', (_name, raw, code, field) => {
    const refused = parseTrigger(raw as any) as Refusal;
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused.code).toBe(code);
    expect(refused.extra.field).toBe(field);
  });
});

describe('triggerFacts: the http_request body names the trigger', () => {
  it('gives the event only for an event trigger', () => {
    expect(triggerFacts({ kind: 'event', event: 'signup' })).toEqual({ kind: 'event', event: 'signup' });
    expect(triggerFacts({ kind: 'stage_entered', stage: 'account' })).toEqual({ kind: 'stage_entered' });
    expect(triggerFacts({ kind: 'webhook' })).toEqual({ kind: 'webhook' });
    expect(triggerFacts({ kind: 'segment_entered', segment: 'seg_1' })).toEqual({ kind: 'segment_entered' });
  });
});
