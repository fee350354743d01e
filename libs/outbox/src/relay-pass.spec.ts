import { HEARD_PER_PASS, PASS_MOST_HEARD, passEnd, PassHappening, PassRow } from './relay-pass';

/** Rows of these sizes (ids 1, 2, …; xid 100 each), and their happenings from `skip` of the first on. */
function outbox(sizes: number[], skip = 0): { rows: PassRow[]; happenings: PassHappening[] } {
  const rows = sizes.map((_, i) => ({ xid: '100', id: String(i + 1) }));
  const happenings = sizes.flatMap((size, i) =>
    Array.from({ length: size }, (_, n) => ({ id: String(BigInt(i + 1) * 65536n + BigInt(n)), row_xid: '100', row_id: String(i + 1) })).slice(i === 0 ? skip : 0),
  );
  return { rows, happenings };
}
const happeningId = (row: number, place: number) => String(BigInt(row) * 65536n + BigInt(place));
const H = HEARD_PER_PASS;

describe('passEnd: where a relay pass stops', () => {
  it('hands on everything when there are at most HEARD_PER_PASS', () => {
    const { rows, happenings } = outbox([10, H - 10]);
    expect(passEnd(rows, happenings, null)).toEqual({ handed: H, rows: 2, cutAfter: null });
  });

  it('stops at the end of the row holding the HEARD_PER_PASS-th happening when that stays within PASS_MOST_HEARD', () => {
    const { rows, happenings } = outbox([H / 2, H, 5]);
    expect(passEnd(rows, happenings, null)).toEqual({ handed: H / 2 + H, rows: 2, cutAfter: null });
  });

  it('cuts inside a row that would take the pass past PASS_MOST_HEARD: the mark stays before it', () => {
    const { rows, happenings } = outbox([10, PASS_MOST_HEARD, 5]);
    expect(passEnd(rows, happenings, null)).toEqual({ handed: H, rows: 1, cutAfter: happeningId(2, H - 11) });
  });

  it('cuts inside a single large row', () => {
    const { rows, happenings } = outbox([PASS_MOST_HEARD + 1]);
    expect(passEnd(rows, happenings, null)).toEqual({ handed: H, rows: 0, cutAfter: happeningId(1, H - 1) });
  });

  it('goes on inside the row an earlier pass cut, and cuts it again further on', () => {
    const { rows, happenings } = outbox([3 * PASS_MOST_HEARD], H);
    expect(passEnd(rows, happenings, happeningId(1, H - 1))).toEqual({ handed: H, rows: 0, cutAfter: happeningId(1, 2 * H - 1) });
  });

  it("ends the earlier cut when the pass reaches its row's end", () => {
    const { rows, happenings } = outbox([H + 10, 4], H);
    expect(passEnd(rows, happenings, happeningId(1, H - 1))).toEqual({ handed: 14, rows: 2, cutAfter: null });
  });

  it('keeps an earlier cut whose row the pass does not reach, and then makes no cut of its own', () => {
    const rows = [{ xid: '2', id: '9' }, { xid: '2', id: '12' }];
    const happenings = Array.from({ length: PASS_MOST_HEARD + 1 }, (_, n) => ({ id: happeningId(9, n), row_xid: '2', row_id: '9' }));
    expect(passEnd(rows, happenings, happeningId(12, 7))).toEqual({ handed: PASS_MOST_HEARD + 1, rows: 1, cutAfter: happeningId(12, 7) });
  });

  it('stops at the same place when only the first PASS_MOST_HEARD + 1 happenings are read', () => {
    for (const sizes of [[10, 4 * PASS_MOST_HEARD], [H / 2, H, 5 * H], [2 * PASS_MOST_HEARD]]) {
      const { rows, happenings } = outbox(sizes);
      expect(passEnd(rows, happenings.slice(0, PASS_MOST_HEARD + 1), null)).toEqual(passEnd(rows, happenings, null));
    }
  });

  it('passes rows with no heard happenings', () => {
    const { rows } = outbox([5, 5, 5]);
    expect(passEnd(rows, [], null)).toEqual({ handed: 0, rows: 3, cutAfter: null });
  });
});
