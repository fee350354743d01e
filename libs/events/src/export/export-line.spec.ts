import { acceptsGzip } from '../http/events-export.controller';
import { decodeExportCursor, parseExportRange } from './export-range';

it("resumes after a line's cursor, and after a cursor of the earlier form", () => {
  const range = parseExportRange({ from: '2026-03-01', to: '2026-03-02', after: '1772323200000001-evt_1' });
  expect(range.after).toEqual({ atMicros: '1772323200000001', id: 'evt_1' });
  const earlier = Buffer.from('1772323200000001:evt_1').toString('base64url');
  expect(decodeExportCursor(earlier)).toEqual({ atMicros: '1772323200000001', id: 'evt_1' });
  expect(decodeExportCursor('soon-evt_1')).toBeNull();
  expect(decodeExportCursor('1772323200000001-evt 1')).toBeNull();
});

it('gzips where Accept-Encoding takes gzip with a weight above zero', () => {
  expect(acceptsGzip('gzip, deflate, br')).toBe(true);
  expect(acceptsGzip('br;q=1, gzip;q=0.5')).toBe(true);
  expect(acceptsGzip('*')).toBe(true);
  expect(acceptsGzip('gzip;q=0')).toBe(false);
  expect(acceptsGzip('identity')).toBe(false);
  expect(acceptsGzip(undefined)).toBe(false);
});
