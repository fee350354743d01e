import { Refusal } from '@app/platform/plain';
import { BROADCAST_STATES, moveRefusal, parseBroadcast, parseScheduledAt } from './broadcast';

describe('parseBroadcast', () => {
  const mail = { subject: 'Hello', body: 'Hello there.' };

  it('takes a list address (lower-cased) or a segment id, and a subject and body', () => {
    expect(parseBroadcast({ name: ' March ', list: ' News ', ...mail })).toEqual({
      name: 'March',
      audience: { kind: 'list', address: 'news' },
      template: null,
      ...mail,
    });
    expect(parseBroadcast({ name: 'S', segment: 'seg_1', ...mail })).toMatchObject({
      audience: { kind: 'segment', id: 'seg_1' },
    });
  });

  it.each([
    ['both list and segment', { name: 'A', list: 'news', segment: 'seg_1', ...mail }, 'invalid_field', 'segment'],
    ['neither', { name: 'A', ...mail }, 'invalid_field', 'list'],
    ['no name', { name: ' ', list: 'news', ...mail }, 'invalid_field', 'name'],
    ['a name over 120 characters', { name: 'n'.repeat(121), list: 'news', ...mail }, 'invalid_field', 'name'],
    ['no subject without a template', { name: 'A', list: 'news', body: 'Hello.' }, 'invalid_subject', 'subject'],
    ['no body without a template', { name: 'A', list: 'news', subject: 'Hi' }, 'missing_body', 'body'],
  ])('refuses %s, naming the field', (_, input, code, field) => {
    const refused = parseBroadcast(input) as Refusal;
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused.code).toBe(code);
    expect(refused.extra.field).toBe(field);
  });

  it('with a template, subject and body are optional overrides', () => {
    expect(parseBroadcast({ name: 'T', list: 'news', template: 'welcome' })).toMatchObject({
      template: 'welcome',
      subject: null,
      body: null,
    });
    expect(parseBroadcast({ name: 'T', list: 'news', template: 'welcome', subject: 'Other' })).toMatchObject({
      subject: 'Other',
    });
  });
});

describe('moveRefusal', () => {
  const allowed: Record<string, string[]> = {
    update: ['draft', 'scheduled'],
    schedule: ['draft', 'scheduled'],
    send: ['draft', 'scheduled'],
    start: ['scheduled'],
    pause: ['sending'],
    resume: ['paused'],
    cancel: ['draft', 'scheduled', 'sending', 'paused'],
  };

  it.each(Object.entries(allowed))('%s goes only from %j; any other state is refused naming it', (move, from) => {
    for (const state of BROADCAST_STATES) {
      const refused = moveRefusal(state, move as never);
      if (from.includes(state)) expect(refused).toBeNull();
      else {
        expect(refused?.code).toBe('conflict');
        expect(refused?.message).toContain(`This broadcast is ${state}`);
      }
    }
  });
});

describe('parseScheduledAt', () => {
  const now = new Date('2026-12-03T12:00:00Z');
  it('takes a time within a year, and a time past as it is', () => {
    expect(parseScheduledAt(new Date('2027-01-01T09:00:00Z'), now)).toEqual(new Date('2027-01-01T09:00:00Z'));
    expect(parseScheduledAt(new Date('2026-01-01T09:00:00Z'), now)).toEqual(new Date('2026-01-01T09:00:00Z'));
  });
  it('refuses a time over a year ahead and an invalid date', () => {
    expect((parseScheduledAt(new Date('2028-12-03T12:00:00Z'), now) as Refusal).code).toBe('invalid_field');
    expect((parseScheduledAt(new Date('nope'), now) as Refusal).code).toBe('invalid_field');
  });
});
