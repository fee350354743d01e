import { Refusal } from '@app/platform';
import { parseStartBody, propertyNames, START_BODY_MAX_BYTES } from './start-body';

const body = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('parseStartBody: the body of a post to an automation address', () => {
  it.each([
    [{ email: ' Ada@Example.com ' }, { person: { by: 'email', email: 'ada@example.com' }, properties: null }],
    [
      { anon_id: 'a-1', properties: { plan: 'pro' } },
      { person: { by: 'anon_id', anonId: 'a-1' }, properties: { plan: 'pro' } },
    ],
    [{ record: 'per_1' }, { person: { by: 'record', id: 'per_1' }, properties: null }],
  ])('names the person: %j', (raw, expected) => {
    expect(parseStartBody(body(raw))).toEqual(expected);
  });

  it('takes 8 KB and refuses a byte more with too_large', () => {
    const filler = (size: number) => {
      const base = JSON.stringify({ email: 'a@example.com', properties: { x: '' } });
      return body({ email: 'a@example.com', properties: { x: 'y'.repeat(size - base.length) } });
    };
    expect(filler(START_BODY_MAX_BYTES)).toHaveLength(START_BODY_MAX_BYTES);
    expect(parseStartBody(filler(START_BODY_MAX_BYTES))).not.toBeInstanceOf(Refusal);
    expect((parseStartBody(filler(START_BODY_MAX_BYTES + 1)) as Refusal).code).toBe('too_large');
  });

  it.each([
    ['not JSON', body('{email:'), 'invalid_json'],
    ['an empty body', undefined, 'invalid_json'],
    ['an array', body([{ email: 'a@example.com' }]), 'invalid_json'],
    ['a string', body('"a@example.com"'), 'invalid_json'],
    ['nobody named', body({ properties: {} }), 'no_identity'],
    ['two ways of naming', body({ email: 'a@example.com', record: 'per_1' }), 'invalid_field'],
    ['a bad email', body({ email: 'not-an-email' }), 'invalid_email'],
    ['properties that are no object', body({ record: 'per_1', properties: [1] }), 'invalid_field'],
    ['an empty record', body({ record: ' ' }), 'invalid_field'],
  ])('refuses %s', (_name, raw, code) => {
    expect((parseStartBody(raw) as Refusal).code).toBe(code);
  });

  it('only the names of properties are for the log', () => {
    expect(propertyNames({ plan: 'pro', secret: 'hunter2' })).toEqual(['plan', 'secret']);
    expect(propertyNames(null)).toEqual([]);
  });
});
