// docs/rest.md#events: the built-in event names, and which names are reserved.
import { Refusal } from '@app/platform';
import { ENGAGING_TIMELINE_KINDS, STAGE_EVENTS } from '@app/people';
import {
  ACTIONS,
  BUILT_IN_EVENTS,
  classifyEventName,
  isAction,
  isBuiltInEvent,
  PUBLIC_EVENTS,
  publicEventRefusal,
  RESERVED_EVENT_NAMES,
  TAG_EVENTS,
  TIMELINE_KINDS,
} from './catalogue';

const codeOf = (value: unknown) => (value instanceof Refusal ? value.code : value);

describe('the event catalogue', () => {
  it("holds exactly the catalogue's twenty built-in names", () => {
    expect(BUILT_IN_EVENTS).toHaveLength(20);
    expect(new Set(BUILT_IN_EVENTS).size).toBe(20);
    for (const name of BUILT_IN_EVENTS) expect(name).toMatch(/^[a-z0-9_]{2,40}$/);
  });

  it('every built-in name that moves a stage is in the catalogue', () => {
    for (const name of STAGE_EVENTS) expect(isBuiltInEvent(name)).toBe(true);
  });

  it('every timeline kind that engages a person is a built-in name or a timeline kind', () => {
    for (const kind of ENGAGING_TIMELINE_KINDS) expect(RESERVED_EVENT_NAMES).toContain(kind);
    for (const kind of ENGAGING_TIMELINE_KINDS)
      expect(isBuiltInEvent(kind) || (TIMELINE_KINDS as readonly string[]).includes(kind)).toBe(true);
  });

  it('reserved names are every built-in name, action and timeline kind, kept in one list', () => {
    for (const name of [...BUILT_IN_EVENTS, ...ACTIONS, ...TIMELINE_KINDS])
      expect(RESERVED_EVENT_NAMES).toContain(name);
    for (const name of [
      'email_sent',
      'email_received',
      'note',
      'stage_changed',
      'subscribed',
      'unsubscribed',
      'merged',
      'test',
      'automation',
    ]) {
      expect(RESERVED_EVENT_NAMES).toContain(name);
    }
    expect(new Set(RESERVED_EVENT_NAMES).size).toBe(RESERVED_EVENT_NAMES.length);
  });

  it('actions are identify, subscribe, unsubscribe and support', () => {
    expect(ACTIONS).toEqual(['identify', 'subscribe', 'unsubscribe', 'support']);
    expect(isAction('support')).toBe(true);
    expect(isAction('unsubscribe')).toBe(true);
    expect(isAction('signup')).toBe(false);
  });

  it('the tag posts only built-in names', () => {
    for (const name of TAG_EVENTS) expect(isBuiltInEvent(name)).toBe(true);
  });
});

describe('classifyEventName', () => {
  it.each(BUILT_IN_EVENTS.map((name) => [name]))('%s is built in', (name) => {
    expect(classifyEventName(name)).toBe('built_in');
  });

  it.each([['report_built'], ['ab'], ['x'.repeat(40)], ['step_2_done'], ['42']])('%s is a custom name', (name) => {
    expect(classifyEventName(name)).toBe('custom');
  });

  it.each([
    [undefined],
    [null],
    [''],
    [7],
    [{}],
    ['a'],
    ['x'.repeat(41)],
    ['Signup'],
    ['report-built'],
    ['report built'],
    ['café'],
  ])('a missing, non-string or malformed name is unknown_event: %p', (name) => {
    expect(codeOf(classifyEventName(name))).toBe('unknown_event');
  });

  it.each([
    ['identify'],
    ['subscribe'],
    ['support'],
    ['email_sent'],
    ['email_received'],
    ['note'],
    ['stage_changed'],
    ['subscribed'],
    ['unsubscribed'],
    ['merged'],
    ['test'],
    ['automation'],
  ])('a reserved name that is not built in is reserved_event_name: %s', (name) => {
    const refused = classifyEventName(name);
    expect(codeOf(refused)).toBe('reserved_event_name');
    expect((refused as Refusal).message).toContain(name);
  });

  it.each([['stage_entered'], ['event'], ['email_in'], ['field_changed'], ['segment_entered'], ['segment_left']])(
    'a trigger name is reserved too: %s',
    (name) => {
      expect(codeOf(classifyEventName(name))).toBe('reserved_event_name');
    },
  );
});

describe('the public key takes only the names the tag posts', () => {
  it("the tag's names are public; a built-in name a server posts is unknown_event, sent to the secret key", () => {
    expect([...PUBLIC_EVENTS].sort()).toEqual([...TAG_EVENTS].sort());
    expect(publicEventRefusal('pageview')).toBeNull();
    const refused = publicEventRefusal('signup');
    expect(codeOf(refused)).toBe('unknown_event');
    expect((refused as Refusal).message).toContain('POST /api/v1/events');
  });

  it('a custom name is refused with unknown_event', () => {
    const refused = publicEventRefusal('report_built');
    expect(codeOf(refused)).toBe('unknown_event');
    expect((refused as Refusal).message).toContain('custom names');
  });
});
