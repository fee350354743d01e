import { loggedUrl, requestLinesHidden } from './logger';

describe('loggedUrl: what a request log may show', () => {
  it('hides the signature of an automation start address, keeping which automation it was', () => {
    expect(loggedUrl('/api/webhooks/automation/aut_01J.AbC-_x9?x=1')).toBe('/api/webhooks/automation/aut_01J.…?x=1');
    expect(loggedUrl('/api/webhooks/automation/aut_01J')).toBe('/api/webhooks/automation/aut_01J');
  });
  it('hides the public key of a website door', () => {
    expect(loggedUrl('/api/in/wk_abc123/event')).toBe('/api/in/wk_…/event');
  });
  it('names a person under /api/v1/people by record id only: an email reads as the record found, else …', () => {
    expect(loggedUrl('/api/v1/people/ada%40example.com/export')).toBe('/api/v1/people/…/export');
    expect(loggedUrl('/api/v1/people/ada@example.com', 'per_01JABC')).toBe('/api/v1/people/per_01JABC');
    expect(loggedUrl('/api/v1/people/ada@example.com/messages?x=1')).toBe('/api/v1/people/…/messages?x=1');
    expect(loggedUrl('/api/v1/people/per_01JABC/export', 'per_01JXYZ')).toBe('/api/v1/people/per_01JABC/export');
    expect(loggedUrl('/api/v1/people/ada@example.com', 'ada@example.com')).toBe('/api/v1/people/…');
  });
  it('leaves other urls alone', () => {
    expect(loggedUrl('/api/v1/events?x=1')).toBe('/api/v1/events?x=1');
  });
});

describe('requestLinesHidden: when the hot doors skip the request logger', () => {
  it.each([
    ['trace', false],
    ['debug', false],
    ['info', false],
    ['warn', true],
    ['error', true],
    ['silent', true],
  ])('level %s hides request lines: %s', (level, hidden) => {
    expect(requestLinesHidden(level)).toBe(hidden);
  });
});
