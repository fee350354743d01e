import { funnelEnd, funnelSteps, parseFunnelInput } from './funnel-rule';
import { funnelStatement } from './funnel.statement';

const base = { steps: ['signup', 'purchase'], from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' };
const refusal = (input: Record<string, unknown>) => {
  try {
    parseFunnelInput({ ...base, ...input });
  } catch (error) {
    const { code, extra } = error as { code: string; extra: { field?: string } };
    return { code, field: extra.field };
  }
  return null;
};

describe('funnel input', () => {
  it('takes 2 to 10 steps, built in or custom names, and withinDays as whole days', () => {
    const question = parseFunnelInput({ ...base, steps: ['signup', 'report_built', 'purchase'], withinDays: 7 });
    expect(question.steps.map((s) => [s.event, s.builtIn, s.field])).toEqual([
      ['signup', true, 'steps[0]'],
      ['report_built', false, 'steps[1]'],
      ['purchase', true, 'steps[2]'],
    ]);
    expect(funnelEnd(question)!.toISOString()).toBe('2026-02-08T00:00:00.000Z');
    expect(funnelEnd(parseFunnelInput(base))).toBeUndefined();
  });

  it.each([
    [{ steps: ['signup'] }, 'invalid_field', 'steps'],
    [{ steps: Array(11).fill('signup') }, 'invalid_field', 'steps'],
    [{ steps: ['signup', 'Not A Name'] }, 'unknown_event', 'steps[1]'],
    [{ steps: ['note', 'signup'] }, 'unknown_event', 'steps[0]'],
    [{ withinDays: 0 }, 'invalid_field', 'withinDays'],
    [{ withinDays: 1.5 }, 'invalid_field', 'withinDays'],
    [{ from: 'yesterday' }, 'invalid_field', 'from'],
    [{ to: '2026-01-01T00:00:00Z' }, 'invalid_field', 'to'],
    [{ segment: '' }, 'invalid_field', 'segment'],
  ])('%j is refused with %s naming %s', (input, code, field) => {
    expect(refusal(input)).toEqual({ code, field });
  });
});

describe('funnel answer', () => {
  it('conversion is people over step 1 people: 1 for step 1, 0 everywhere when step 1 has nobody', () => {
    const question = parseFunnelInput({ ...base, steps: ['signup', 'purchase', 'pageview'] });
    expect(funnelSteps(question, [4, 2, 1])).toEqual([
      { event: 'signup', people: 4, conversion: 1 },
      { event: 'purchase', people: 2, conversion: 0.5 },
      { event: 'pageview', people: 1, conversion: 0.25 },
    ]);
    expect(funnelSteps(question, [0, 0, 0]).map((s) => s.conversion)).toEqual([0, 0, 0]);
  });
});

describe('funnel statement', () => {
  it('a step naming the event of the one before needs a later row; the segment is one EXISTS on step 1', () => {
    const { sql, args } = funnelStatement(
      'ws_1',
      parseFunnelInput({ ...base, steps: ['pageview', 'pageview', 'purchase'], segment: 'seg_1' }),
    );
    const [, s2, s3] = sql.split(/\ns\d AS /);
    expect(s2).toContain('JOIN events e ON e.person_id = s.person_id AND e.occurred_at > s.at\n');
    expect(s3).toContain('JOIN events e ON e.person_id = s.person_id AND e.occurred_at >= s.at\n');
    expect(sql.match(/segment_members/g)).toHaveLength(1);
    expect(args).toEqual([
      'ws_1',
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
      'seg_1',
      'pageview',
      'pageview',
      'purchase',
    ]);
  });
});
