import { httpRequestLine, startedLine, waitingLine } from './run-log';

describe('the http_request step line', () => {
  it('posted: host and status', () => {
    expect(httpRequestLine('https://hooks.example.com:8443/a?b=c', { ok: true, status: 204 })).toBe(
      'posted to hooks.example.com:8443: 204',
    );
  });
  it('not retried: a non-2xx answer', () => {
    expect(httpRequestLine('https://hooks.example.com/a', { ok: false, status: 500 })).toBe(
      'not retried: hooks.example.com answered 500',
    );
    expect(httpRequestLine('https://hooks.example.com/a', { ok: false, status: 302 })).toContain('not retried');
  });
  it('could not post: the cause', () => {
    expect(httpRequestLine('https://hooks.example.com/a', { ok: false, error: 'connect ECONNREFUSED' })).toBe(
      'could not post to hooks.example.com: connect ECONNREFUSED',
    );
  });
  it('never shows the path or query, which may carry a token', () => {
    expect(httpRequestLine('https://hooks.example.com/secret-path?token=abc', { ok: true, status: 200 })).not.toMatch(
      /secret|token/,
    );
  });
});

describe('the started line', () => {
  it('names the trigger and only the names of the properties', () => {
    expect(startedLine({ kind: 'webhook' }, ['plan', 'coupon'])).toBe(
      'started by its address with properties plan, coupon',
    );
    expect(startedLine({ kind: 'event', event: 'signup' })).toBe('started by event signup');
    expect(startedLine({ kind: 'stage_entered', stage: 'account' })).toBe('started by stage_entered account');
    expect(startedLine({ kind: 'subscribed' })).toBe('started by subscribed');
    expect(startedLine({ kind: 'segment_entered', segment: 'seg_1' })).toBe('started by segment_entered seg_1');
    expect(startedLine({ kind: 'segment_left' })).toBe('started by segment_left');
  });
});

describe('the waiting line', () => {
  it('says how long and until when', () => {
    expect(waitingLine(60, new Date('2026-01-01T00:01:00.000Z'))).toBe('waiting 60 s, until 2026-01-01T00:01:00.000Z');
  });
});
