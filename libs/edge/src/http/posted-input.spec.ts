// docs/security.md#input-every-door-refuses-what-no-door-can-store: what no door accepts, whatever its own rules.
import { hostileJsonRefusal, hostileRequestLineRefusal, MAX_JSON_DEPTH, unstorableText } from './posted-input';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe('unstorableText', () => {
  it.each([
    ['plain text', 'hello', null],
    ['a surrogate pair (an emoji)', 'ok 😀', null],
    ['a NUL', 'a\u0000b', 'a NUL character'],
    ['a lone high surrogate at the end', 'x\ud83d', 'a lone surrogate'],
    ['a lone high surrogate before text', '\ud83dx', 'a lone surrogate'],
    ['a lone low surrogate', '\ude00x', 'a lone surrogate'],
    ['two high surrogates', '\ud83d\ud83d\ude00', 'a lone surrogate'],
  ])('%s', (_name, text, expected) => {
    expect(unstorableText(text)).toBe(expected);
  });
});

describe('hostileJsonRefusal names the field', () => {
  it.each([
    [{ a: { b: ['x', 'y\u0000'] } }, 'a.b[1]'],
    [{ 'odd key': '\ud800' }, '"odd key"'],
    [{ events: [{ anon_id: '\u0000' }] }, 'events[0].anon_id'],
    ['\u0000', 'body'],
  ])('%j -> %s', (value, field) => {
    const refusal = hostileJsonRefusal(value);
    expect(refusal?.code).toBe('invalid_field');
    expect(refusal?.extra.field).toBe(field);
    expect(refusal?.message.startsWith(field)).toBe(true);
  });

  it('names a key that holds a NUL by where it is', () => {
    expect(hostileJsonRefusal({ p: { ['k\u0000']: 1 } })?.message).toMatch(/^a key in p contains a NUL character/);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    expect(hostileJsonRefusal(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(hostileJsonRefusal(nested(MAX_JSON_DEPTH + 1))?.message).toMatch(/nested deeper than 32 levels/);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i++) value = { a: value };
    expect(hostileJsonRefusal(value)?.code).toBe('invalid_field');
  });

  it('accepts ordinary values', () => {
    expect(
      hostileJsonRefusal({ type: 'signup', n: 1, ok: true, none: null, list: [1, 'two', { three: '😀' }] }),
    ).toBeNull();
  });
});

describe('hostileRequestLineRefusal', () => {
  it.each([
    ['/api/in/wk_%00/event', {}, 'path'],
    ['/api/v1/people/%ED%A0%80/messages', {}, 'path'],
    ['/api/v1/people/%E0%A4%A/messages', {}, 'path'],
    ['/api/v1/messages', { person: '\u0000' }, 'person'],
    ['/api/v1/messages', { person: ['ok', '\udc00'] }, 'person[1]'],
  ])('%s %j is refused naming %s', (path, query, field) => {
    const refusal = hostileRequestLineRefusal(path, query);
    expect(refusal?.code).toBe('invalid_field');
    expect(String(refusal?.extra.field)).toContain(field === 'path' ? 'path' : field);
  });

  it('accepts an ordinary address', () => {
    expect(hostileRequestLineRefusal('/api/v1/people/ada%40example.com/messages', { limit: '10' })).toBeNull();
  });
});
