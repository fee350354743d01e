import { normalizeOriginPattern, originAllowed } from './origin-rule';

describe('posts are accepted only from the sites the workspace names', () => {
  const patterns = ['https://acme.test', 'https://*.shop.test', 'http://localhost:*'];

  it.each([
    ['https://acme.test', true],
    ['https://www.acme.test', false],
    ['http://acme.test', false],
    ['https://acme.test:8443', false],
    ['https://eu.shop.test', true],
    ['https://shop.test', false],
    ['https://evilshop.test', false],
    ['http://localhost:5173', true],
    ['http://localhost', true],
    ['https://localhost:5173', false],
    ['null', false],
    ['https://acme.test/path', false],
    ['HTTPS://ACME.TEST', false],
    ['https://user@acme.test', false],
    [undefined, false],
  ])('%s allowed: %s', (origin, allowed) => {
    expect(originAllowed(origin, patterns)).toBe(allowed);
  });

  it('normalizes patterns and refuses what is not an origin', () => {
    expect(normalizeOriginPattern(' https://Acme.test/ ')).toBe('https://acme.test');
    expect(normalizeOriginPattern('acme.test')).toBeNull();
    expect(normalizeOriginPattern('https://acme.test/path')).toBeNull();
  });
});
