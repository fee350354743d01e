import { pathOf } from './definition-path';

describe('pathOf names the first place a name stands, as the grammar writes paths', () => {
  it.each([
    [{ event: 'x' }, 'event', 'x', 'definition.event'],
    [{ all: [{ engaged: true }, { event: 'x' }] }, 'event', 'x', 'definition.all[1].event'],
    [{ any: [{ not: { list: 'news' } }, { list: 'news' }] }, 'list', 'news', 'definition.any[0].not.list'],
    [{ all: [{ event: 'y' }] }, 'event', 'x', null],
    ['x', 'event', 'x', null],
  ])('%j: %s %s at %s', (raw, key, value, path) => {
    expect(pathOf(raw, key, value)).toBe(path);
  });
});
