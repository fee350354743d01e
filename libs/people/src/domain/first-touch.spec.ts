import { Refusal } from '@app/core';
import { firstTouchFrom, parseSource, personOs, referrerHost } from './first-touch';

describe('source object', () => {
  it('a whole referrer address is reduced to its host', () => {
    expect(referrerHost('https://News.ycombinator.com/item?id=1')).toBe('news.ycombinator.com');
    expect(referrerHost('google.com')).toBe('google.com');
    expect(parseSource({ referrer: 'https://www.google.com/search?q=x' })).toEqual({ referrer: 'www.google.com' });
  });

  it.each([
    ['win', 'win'],
    ['MAC', 'mac'],
    ['linux', 'linux'],
    ['other', 'other'],
    ['android', null],
    ['windows', null],
    [undefined, null],
  ])('only win, mac, linux and other become the person os: %s -> %s', (os, expected) => {
    expect(personOs(os)).toBe(expected);
  });

  it('a known field of the wrong type is refused naming it; unknown keys are dropped', () => {
    const refused = parseSource({ path: 5 });
    expect(refused).toBeInstanceOf(Refusal);
    expect((refused as Refusal).message).toContain('source.path');
    expect(parseSource({ path: '/a', colour: 'red' })).toEqual({ path: '/a' });
  });
});

describe('first touch (decisions.md section 4)', () => {
  it('source is utm.source, else the referrer host, else direct', () => {
    expect(firstTouchFrom({ utm: { source: 'newsletter', medium: 'email', campaign: 'launch' }, referrer: 'google.com' })).toMatchObject({
      source: 'newsletter',
      medium: 'email',
      campaign: 'launch',
    });
    expect(firstTouchFrom({ referrer: 'google.com', path: '/' })).toMatchObject({ source: 'google.com', medium: null });
    expect(firstTouchFrom({ path: '/pricing' })).toMatchObject({ source: 'direct', path: '/pricing' });
  });

  it('a post without source data sets no first touch', () => {
    expect(firstTouchFrom(undefined)).toBeNull();
    expect(firstTouchFrom({ os: 'mac' })).toBeNull();
  });
});
