import { ingestDoor, itemOutcomes } from './metrics';
import { metricsAllowed } from './observability.module';

describe('itemOutcomes: one outcome per event item of an answer', () => {
  it.each([
    [200, { ok: true, status: 'recorded' }, ['accepted']],
    [400, { ok: false, error: 'invalid_field', message: 'x' }, ['invalid_field']],
    [
      207,
      {
        ok: false,
        error: 'partial_failure',
        results: [
          { index: 0, ok: true },
          { index: 1, ok: false, error: 'unknown_event' },
        ],
      },
      ['accepted', 'unknown_event'],
    ],
    [200, { ok: true, results: [{ ok: true }, { ok: true }] }, ['accepted', 'accepted']],
    [500, undefined, ['server_error']],
  ])('%p %j', (status, body, expected) => {
    expect(itemOutcomes(status, body)).toEqual(expected);
  });
});

it('ingestDoor names the two doors and nothing else', () => {
  // The routes of the doors that declare eventItems (Doors.eventItemRoutes): events' two.
  const routes = new Map([
    ['/api/v1/events', 'server'],
    ['/api/in/:publicKey/:action', 'public'],
  ] as const);
  expect(ingestDoor('POST', '/api/v1/events', routes)).toBe('server');
  expect(ingestDoor('POST', '/api/in/:publicKey/:action', routes)).toBe('public');
  expect(ingestDoor('GET', '/api/v1/events', routes)).toBeNull();
  expect(ingestDoor('POST', undefined, routes)).toBeNull();
});

describe('metricsAllowed', () => {
  it('with ADMIN_TOKEN: the bearer token only, from anywhere', () => {
    const config = { adminToken: 'operator-token-0123456789' };
    expect(metricsAllowed(config, 'Bearer operator-token-0123456789', '203.0.113.9')).toBe(true);
    expect(metricsAllowed(config, 'Bearer operator-token-012345678', '127.0.0.1')).toBe(false);
    expect(metricsAllowed(config, undefined, '127.0.0.1')).toBe(false);
  });
  it('without ADMIN_TOKEN: loopback callers only', () => {
    expect(metricsAllowed({ adminToken: null }, undefined, '127.0.0.1')).toBe(true);
    expect(metricsAllowed({ adminToken: null }, undefined, '::1')).toBe(true);
    expect(metricsAllowed({ adminToken: null }, undefined, '10.0.0.4')).toBe(false);
  });
});
