import { Refusal } from '@app/platform';
import { MAX_STEPS, parseSteps } from './steps';

describe('parseSteps: steps are checked when saved', () => {
  it('accepts each kind with its own field, trimmed, in order', () => {
    expect(
      parseSteps([
        { kind: 'http_request', url: ' https://hooks.example.com/x ' },
        { kind: 'send_email', template: 'welcome' },
        { kind: 'wait', seconds: 1 },
        { kind: 'wait', seconds: 30 * 24 * 3600, url: null },
      ]),
    ).toEqual([
      { kind: 'http_request', url: 'https://hooks.example.com/x' },
      { kind: 'send_email', template: 'welcome' },
      { kind: 'wait', seconds: 1 },
      { kind: 'wait', seconds: 2_592_000 },
    ]);
    expect(parseSteps([])).toEqual([]);
  });

  it.each([
    ['an unknown kind', [{ kind: 'sms' }], 'steps[0].kind'],
    ['a wait of 0 seconds', [{ kind: 'wait', seconds: 0 }], 'steps[0].seconds'],
    ['a wait over 30 days', [{ kind: 'wait', seconds: 30 * 24 * 3600 + 1 }], 'steps[0].seconds'],
    ['a wait of part of a second', [{ kind: 'wait', seconds: 1.5 }], 'steps[0].seconds'],
    ['a wait without seconds', [{ kind: 'wait' }], 'steps[0].seconds'],
    ['an http_request without url', [{ kind: 'wait', seconds: 5 }, { kind: 'http_request' }], 'steps[1].url'],
    ['a send_email without template', [{ kind: 'send_email', template: '  ' }], 'steps[0].template'],
    ['a field of another kind', [{ kind: 'send_email', template: 'a', seconds: 3 }], 'steps[0].seconds'],
    ['too many steps', Array.from({ length: MAX_STEPS + 1 }, () => ({ kind: 'wait', seconds: 1 })), 'steps'],
  ])('refuses %s with invalid_field naming it', (_name, raw, field) => {
    const refused = parseSteps(raw) as Refusal;
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused.code).toBe('invalid_field');
    expect(refused.extra.field).toBe(field);
    expect(refused.message).toContain(field);
  });
});
