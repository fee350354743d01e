import { pickEncoding } from './track-script.service';

it.each([
  [undefined, 'identity'],
  ['', 'identity'],
  ['gzip, deflate, br', 'br'],
  ['gzip', 'gzip'],
  ['br;q=0, gzip', 'gzip'],
  ['*', 'br'],
  ['*;q=0', 'identity'],
  ['identity', 'identity'],
  ['BR', 'br'],
])('Accept-Encoding %p answers %p', (header, expected) => {
  expect(pickEncoding(header)).toBe(expected);
});
