// leanRecord and isoText: a write document's rows read by jsonb_to_recordset as JSON.stringify would
// have written them, with each Date's text made once.
import fc from 'fast-check';
import { isoText, leanRecord } from './prepared';

/** What jsonb_to_recordset reads of a row: its JSON, a missing key and null alike. */
const asRead = (row: object) =>
  Object.fromEntries(
    Object.entries(JSON.parse(JSON.stringify(row)) as Record<string, unknown>).filter(([, v]) => v !== null),
  );

describe('leanRecord', () => {
  it('reads as the row itself would (Dates as their JSON text, nulls and the omitted column left out)', () => {
    const now = new Date('2026-11-27T09:45:01.234Z');
    const row = {
      workspace_id: 'ws_1',
      id: 'per_1',
      name: null,
      created_at: now,
      first_touch_at: now,
      engaged_at: new Date(0),
      fields: {},
      purchases: 0,
      gone: undefined,
      bad: new Date(NaN),
    };
    const lean = leanRecord(row, 'workspace_id');
    expect(lean).toEqual({
      id: 'per_1',
      created_at: '2026-11-27T09:45:01.234Z',
      first_touch_at: '2026-11-27T09:45:01.234Z',
      engaged_at: '1970-01-01T00:00:00.000Z',
      fields: {},
      purchases: 0,
    });
    const { workspace_id: _omitted, ...rest } = row;
    expect(asRead(lean)).toEqual(asRead(rest));
  });
});

describe('isoText', () => {
  it('is toISOString for any Dates, asked in any order and again', () => {
    const date = fc.date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2999-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(
        fc.array(date, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (dates, picks) => {
          for (const pick of [...picks, 0, 0]) {
            const d = dates[pick % dates.length];
            expect(isoText(d)).toBe(d.toISOString());
          }
        },
      ),
    );
  });

  it('gives a Date changed in place its new text, and refuses an invalid Date as toISOString does', () => {
    const a = new Date('2026-01-01T00:00:00Z');
    expect(isoText(a)).toBe('2026-01-01T00:00:00.000Z');
    a.setTime(Date.parse('2027-01-01T00:00:00Z'));
    expect(isoText(a)).toBe('2027-01-01T00:00:00.000Z');
    expect(() => isoText(new Date(NaN))).toThrow(RangeError);
  });
});
