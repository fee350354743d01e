// Identity keys, merges and identify statuses (docs/rest.md#events).
import { identifyStatus, identityKeys, isEmail, normalizeEmail, planMerge, PersonSnapshot } from './identity';

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
const d = (day: string) => new Date(`2026-01-${day}T00:00:00Z`);

describe('identity keys', () => {
  it('email is lower-cased and trimmed', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('keys come out normalized, in the order email, anon_id, account_id', () => {
    expect(identityKeys({ email: ' Ada@Example.com', anon_id: ' a1 ', account_id: 'u-7' })).toEqual([
      { kind: 'email', value: 'ada@example.com' },
      { kind: 'anon_id', value: 'a1' },
      { kind: 'account_id', value: 'u-7' },
    ]);
  });

  it('empty, blank and missing values name nobody', () => {
    expect(identityKeys({ email: '', anon_id: '   ', account_id: null })).toEqual([]);
    expect(identityKeys({})).toEqual([]);
  });

  it.each([
    ['ada@example.com', true],
    ['a.b+c@sub.example.co', true],
    ["o'neil@example.ie", true],
    ['ada@xn--bcher-kva.example', true],
    ['ada@my-host.example.com', true],
    ['ada@example', false],
    ['ada example.com', false],
    ['ada @example.com', false],
    ['@example.com', false],
    ['ada@', false],
    ['ada@@example.com', false],
    ['ada@exa@mple.com', false],
    ['.ada@example.com', false],
    ['ada.@example.com', false],
    ['a..da@example.com', false],
    ['ada@.example.com', false],
    ['ada@example..com', false],
    ['ada@-example.com', false],
    ['ada@example-.com', false],
    ['ada@example.c', false],
    ['ada@1.2.3.4', false],
    ['<ada@example.com>', false],
    [`${'a'.repeat(65)}@example.com`, false],
    [`a@${Array.from({ length: 5 }, () => 'b'.repeat(50)).join('.')}.com`, false],
    [`a@${'b'.repeat(64)}.com`, false],
  ])('isEmail is a practical check: %s -> %s', (value, expected) => expect(isEmail(value)).toBe(expected));
});

describe('merging people', () => {
  // One line a concern: who, stage, first touch, then what adds up or is kept.
  const older = person({
    id: 'per_b',
    createdAt: d('01'),
    name: 'Ada',
    stage: 'account',
    stageChangedAt: d('02'),
    firstTouch: { source: 'google' },
    firstTouchAt: d('01'),
    purchases: 1,
    fields: { plan: 'pro', team: 'a' },
  });
  const newer = person({
    id: 'per_a',
    createdAt: d('05'),
    email: 'ada@x.io',
    os: 'mac',
    stage: 'purchaser',
    stageChangedAt: d('06'),
    firstTouch: { source: 'direct' },
    firstTouchAt: d('05'),
    purchases: 2,
    engagedAt: d('06'),
    fields: { team: 'b', seat: 3 },
  });

  it('merges into the older person, whatever the order given', () => {
    for (const plan of [planMerge([newer, older]), planMerge([older, newer])]) {
      expect(plan.survivorId).toBe('per_b');
      expect(plan.absorbedIds).toEqual(['per_a']);
    }
  });

  it('two people created at the same instant merge into the smaller id', () => {
    const twin = { ...newer, createdAt: older.createdAt };
    expect(planMerge([older, twin]).survivorId).toBe('per_a');
  });

  it('three people merge into the oldest, absorbing the others oldest first', () => {
    const third = person({ id: 'per_c', createdAt: d('03') });
    expect(planMerge([newer, third, older])).toMatchObject({ survivorId: 'per_b', absorbedIds: ['per_c', 'per_a'] });
  });

  it("the earliest first touch wins, even when it is the newer person's", () => {
    expect(planMerge([newer, older]).firstTouch).toEqual({ source: 'google' });
    const lateTouch = { ...older, firstTouchAt: d('20') };
    expect(planMerge([newer, lateTouch])).toMatchObject({ firstTouch: { source: 'direct' }, firstTouchAt: d('05') });
    expect(planMerge([newer, { ...older, firstTouch: null, firstTouchAt: null }]).firstTouch).toEqual({
      source: 'direct',
    });
  });

  it('the stage of the one whose last stage change is latest wins', () => {
    expect(planMerge([newer, older])).toMatchObject({ stage: 'purchaser', stageChangedAt: d('06') });
    const laterChange = { ...older, stageChangedAt: d('09') };
    expect(planMerge([newer, laterChange])).toMatchObject({ stage: 'account', stageChangedAt: d('09') });
  });

  it("a person with no stage never wipes the other's stage", () => {
    const noStage = { ...newer, stage: null, stageChangedAt: null };
    expect(planMerge([noStage, older]).stage).toBe('account');
  });

  it('purchases add up', () => {
    expect(planMerge([newer, older]).purchases).toBe(3);
  });

  it('the earliest engagement stays', () => {
    expect(planMerge([newer, older]).engagedAt).toEqual(d('06'));
    expect(planMerge([newer, { ...older, engagedAt: d('02') }]).engagedAt).toEqual(d('02'));
  });

  it("name and email are the survivor's unless null", () => {
    const plan = planMerge([newer, { ...older, email: 'ada@old.io' }]);
    expect(plan).toMatchObject({ name: 'Ada', email: 'ada@old.io' });
    expect(planMerge([newer, older])).toMatchObject({ name: 'Ada', email: 'ada@x.io', os: 'mac' });
  });

  it('fields of the older person win on the same key; others are kept', () => {
    expect(planMerge([newer, older]).fields).toEqual({ plan: 'pro', team: 'a', seat: 3 });
  });

  it('one person alone absorbs nobody; no people is a programming error', () => {
    expect(planMerge([older])).toMatchObject({ survivorId: 'per_b', absorbedIds: [], stage: 'account', purchases: 1 });
    expect(() => planMerge([])).toThrow();
  });
});

describe('identify statuses', () => {
  it.each([
    [0, 'created'],
    [1, 'linked'],
    [2, 'merged'],
    [3, 'merged'],
  ])('keys naming %i people -> %s', (found, status) => {
    expect(identifyStatus(found)).toBe(status);
  });
});
