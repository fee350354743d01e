import { loggedUrl, requestLinesHidden } from './logger';

describe('loggedUrl: what a request log may show', () => {
  it('hides the signature of an automation start address, keeping which automation it was', () => {
    expect(loggedUrl('/api/webhooks/automation/aut_01J.AbC-_x9?x=1')).toBe('/api/webhooks/automation/aut_01J.…?x=1');
    expect(loggedUrl('/api/webhooks/automation/aut_01J')).toBe('/api/webhooks/automation/aut_01J');
  });
  it('hides the public key of a website door', () => {
    expect(loggedUrl('/api/in/wk_abc123/event')).toBe('/api/in/wk_…/event');
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
