// docs/rest.md#answers-and-refusals: field readers behind invalid_field, and ISO 8601 dates.
import { Refusal } from '@app/platform';
import { isPlainObject, optionalText, parseInstant } from './posted-input';

describe('ISO 8601 dates', () => {
  it.each([
    ['2026-05-01T12:00:00Z', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T12:00:00.123Z', '2026-05-01T12:00:00.123Z'],
    ['2026-05-01T12:00:00.123456789z', '2026-05-01T12:00:00.123Z'],
    ['2026-05-01T14:00:00+02:00', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T07:30:00-0430', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01T13:00+01', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01 12:00:00Z', '2026-05-01T12:00:00.000Z'],
    ['2026-05-01', '2026-05-01T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('%s is %s', (value, iso) => {
    expect(parseInstant(value)?.toISOString()).toBe(iso);
  });

  it('a date-time without an offset is read as UTC, whatever the server zone', () => {
    expect(parseInstant('2026-05-01T12:00:00')?.toISOString()).toBe('2026-05-01T12:00:00.000Z');
  });

  it.each([
    ['2026-02-30'],
    ['2025-02-29'],
    ['2026-13-01'],
    ['2026-05-01T24:00:00Z'],
    ['2026-05-01T12:60:00Z'],
    ['2026-05-01T12:00:00+25:00'],
    ['0099-01-01'],
    ['yesterday'],
    ['1 May 2026'],
    ['20260501'],
    ['2026-05-01T12'],
    [''],
  ])('%s is not a date', (value) => {
    expect(parseInstant(value)).toBeNull();
  });

  it('only strings are dates', () => {
    expect(parseInstant(1_777_000_000_000)).toBeNull();
    expect(parseInstant(new Date())).toBeNull();
    expect(parseInstant(null)).toBeNull();
  });
});

describe('optional text fields', () => {
  it('absent, null and blank are undefined; others are trimmed unless verbatim', () => {
    expect(optionalText({}, 'who', { max: 5 })).toBeUndefined();
    expect(optionalText({ who: null }, 'who', { max: 5 })).toBeUndefined();
    expect(optionalText({ who: '  ' }, 'who', { max: 5 })).toBeUndefined();
    expect(optionalText({ who: ' Ada ' }, 'who', { max: 5 })).toBe('Ada');
    expect(optionalText({ who: ' Ada ' }, 'who', { max: 5, verbatim: true })).toBe(' Ada ');
  });

  it('a wrong type or an over-long value is invalid_field naming the field', () => {
    for (const input of [{ who: 3 }, { who: 'abcdef' }]) {
      const refused = optionalText(input, 'who', { max: 5 }, 'support.who') as Refusal;
      expect(refused.code).toBe('invalid_field');
      expect(refused.message).toMatch(/^support\.who /);
    }
  });
});

describe('plain objects', () => {
  it('only objects as JSON.parse makes them', () => {
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(new Date())).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject('x')).toBe(false);
  });
});
