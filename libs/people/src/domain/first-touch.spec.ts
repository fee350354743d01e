// A person's first touch, from the source field of docs/rest.md#events (docs/graphql.md#people shows it).
import { Refusal } from '@app/platform';
import { firstTouchFrom, parseSource, personOs, referrerHost, SOURCE_TEXT_MAX } from './first-touch';

const refusalOf = (value: unknown) => (value instanceof Refusal ? value : null);

describe('referrer: a host, or a whole address reduced to its host', () => {
  it.each([
    ['https://News.ycombinator.com/item?id=1', 'news.ycombinator.com'],
    ['google.com', 'google.com'],
    ['Google.COM', 'google.com'],
    ['localhost:3000', 'localhost'],
    ['https://user:pw@example.com:8443/a', 'example.com'],
    ['//cdn.example.com/x', 'cdn.example.com'],
    ['example.com./', 'example.com'],
    ['android-app://com.google.android.gm/', 'com.google.android.gm'],
    ['   ', null],
    ['not a host!', null],
  ])('%s -> %s', (value, expected) => {
    expect(referrerHost(value)).toBe(expected);
  });

  it('parseSource keeps only the host of a referrer, even one longer than the string cap', () => {
    expect(parseSource({ referrer: 'https://www.google.com/search?q=x' })).toEqual({ referrer: 'www.google.com' });
    expect(parseSource({ referrer: `https://example.com/${'a'.repeat(2000)}` })).toEqual({ referrer: 'example.com' });
    expect(parseSource({ referrer: 'not a host!' })).toBeUndefined();
  });
});

describe('os: only win, mac, linux and other become a field on the person', () => {
  it.each([
    ['win', 'win'],
    ['MAC', 'mac'],
    [' Linux ', 'linux'],
    ['other', 'other'],
    ['android', null],
    ['windows', null],
    ['', null],
    [undefined, null],
    [7, null],
  ])('%s -> %s', (os, expected) => {
    expect(personOs(os)).toBe(expected);
  });
});

describe('parseSource', () => {
  it('reads every field of the source object', () => {
    const raw = {
      path: '/pricing',
      referrer: 'https://t.co/abc',
      os: 'mac',
      anon_id: 'anon-1',
      utm: { source: 'newsletter', medium: 'email', campaign: 'launch', term: 'crm', content: 'top' },
      click_id: 'gclid-1',
    };
    expect(parseSource(raw)).toEqual({ ...raw, referrer: 't.co' });
  });

  it.each([
    [{ path: 5 }, 'source.path'],
    [{ referrer: true }, 'source.referrer'],
    [{ os: {} }, 'source.os'],
    [{ anon_id: 12 }, 'source.anon_id'],
    [{ click_id: [] }, 'source.click_id'],
    [{ utm: 'newsletter' }, 'source.utm'],
    [{ utm: { campaign: 3 } }, 'source.utm.campaign'],
  ])('a known field of the wrong type is refused with invalid_field naming it: %o', (raw, field) => {
    const refused = refusalOf(parseSource(raw));
    expect(refused?.code).toBe('invalid_field');
    expect(refused?.message).toContain(field);
  });

  it('source that is not an object is refused with invalid_field', () => {
    expect(refusalOf(parseSource('google'))?.code).toBe('invalid_field');
    expect(refusalOf(parseSource([1]))?.code).toBe('invalid_field');
  });

  it('unknown keys are dropped, in source and in utm', () => {
    expect(parseSource({ path: '/a', colour: 'red', utm: { source: 'x', gclid: 'y' } })).toEqual({
      path: '/a',
      utm: { source: 'x' },
    });
  });

  it('strings are trimmed and cut to the cap; blank ones are dropped', () => {
    const parsed = parseSource({ path: `  /${'p'.repeat(SOURCE_TEXT_MAX + 50)}`, os: '  ', utm: { source: '' } });
    expect(parsed).toEqual({ path: `/${'p'.repeat(SOURCE_TEXT_MAX - 1)}` });
  });

  it('an anon_id over 200 characters is refused rather than cut, since it names a person', () => {
    expect(refusalOf(parseSource({ anon_id: 'a'.repeat(201) }))?.message).toContain('source.anon_id');
    expect(parseSource({ anon_id: 'a'.repeat(200) })).toEqual({ anon_id: 'a'.repeat(200) });
  });

  it('absent, null or empty source is no source data', () => {
    expect(parseSource(undefined)).toBeUndefined();
    expect(parseSource(null)).toBeUndefined();
    expect(parseSource({})).toBeUndefined();
    expect(parseSource({ utm: {} })).toBeUndefined();
  });
});

describe('first touch', () => {
  it('source is utm.source; medium and campaign come from utm', () => {
    expect(
      firstTouchFrom({
        utm: { source: 'newsletter', medium: 'email', campaign: 'launch' },
        referrer: 'google.com',
        path: '/',
      }),
    ).toEqual({
      source: 'newsletter',
      medium: 'email',
      campaign: 'launch',
      referrer: 'google.com',
      path: '/',
      click_id: null,
    });
  });

  it('without utm.source, source is the referrer host', () => {
    expect(firstTouchFrom({ referrer: 'google.com', utm: { medium: 'cpc' } })).toMatchObject({
      source: 'google.com',
      medium: 'cpc',
      campaign: null,
    });
  });

  it('without utm.source or referrer, source is direct', () => {
    expect(firstTouchFrom({ path: '/pricing' })).toMatchObject({
      source: 'direct',
      medium: null,
      campaign: null,
      path: '/pricing',
    });
    expect(firstTouchFrom({ click_id: 'gclid-1' })).toMatchObject({ source: 'direct', click_id: 'gclid-1' });
  });

  it('a post without arrival data sets no first touch', () => {
    expect(firstTouchFrom(undefined)).toBeNull();
    expect(firstTouchFrom({})).toBeNull();
    expect(firstTouchFrom({ os: 'mac' })).toBeNull();
    expect(firstTouchFrom({ anon_id: 'a1', os: 'win' })).toBeNull();
  });
});
