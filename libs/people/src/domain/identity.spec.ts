import { identityKeys, isEmail, normalizeEmail, planMerge, PersonSnapshot } from './identity';

const person = (over: Partial<PersonSnapshot> & { id: string; createdAt: Date }): PersonSnapshot => ({
  stage: null,
  stageChangedAt: null,
  firstTouch: null,
  firstTouchAt: null,
  purchases: 0,
  engagedAt: null,
  name: null,
  email: null,
  os: null,
  fields: {},
  ...over,
});
const d = (s: string) => new Date(`2026-01-${s}T00:00:00Z`);

describe('identity keys', () => {
  it('email is lower-cased and trimmed', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(identityKeys({ email: ' Ada@Example.com', anon_id: 'a1', account_id: 'u-7' })).toEqual([
      { kind: 'email', value: 'ada@example.com' },
      { kind: 'anon_id', value: 'a1' },
      { kind: 'account_id', value: 'u-7' },
    ]);
  });

  it.each([
    ['ada@example.com', true],
    ['a.b+c@sub.example.co', true],
    ['ada@example', false],
    ['ada example.com', false],
    ['@example.com', false],
    ['ada@@example.com', false],
  ])('isEmail(%s) is %s', (value, expected) => expect(isEmail(value)).toBe(expected));
});

describe('merging two people (decisions.md section 4)', () => {
  const older = person({ id: 'per_b', createdAt: d('01'), stage: 'account', stageChangedAt: d('02'), firstTouch: { source: 'google' }, firstTouchAt: d('01'), purchases: 1, name: 'Ada', fields: { plan: 'pro', team: 'a' } });
  const newer = person({ id: 'per_a', createdAt: d('05'), stage: 'purchaser', stageChangedAt: d('06'), firstTouch: { source: 'direct' }, firstTouchAt: d('05'), purchases: 2, email: 'ada@x.io', engagedAt: d('06'), fields: { team: 'b', seat: 3 } });

  it('merges into the older person', () => {
    const plan = planMerge([newer, older]);
    expect(plan.survivorId).toBe('per_b');
    expect(plan.absorbedIds).toEqual(['per_a']);
  });

  it('the earliest first touch wins', () => {
    expect(planMerge([newer, older]).merged.firstTouch).toEqual({ source: 'google' });
  });

  it('the stage of the one whose last stage change is latest wins', () => {
    expect(planMerge([newer, older]).merged.stage).toBe('purchaser');
    const laterChange = { ...older, stageChangedAt: d('09') };
    expect(planMerge([newer, laterChange]).merged.stage).toBe('account');
  });

  it('purchases add up, the earliest engagement stays, names and fields are kept', () => {
    const merged = planMerge([newer, older]).merged;
    expect(merged.purchases).toBe(3);
    expect(merged.engagedAt).toEqual(d('06'));
    expect(merged.name).toBe('Ada');
    expect(merged.email).toBe('ada@x.io');
    expect(merged.fields).toEqual({ plan: 'pro', team: 'a', seat: 3 });
  });
});
