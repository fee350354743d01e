// Where a relay pass stops (issue 32). A pass's follow-ups (say, webhook first attempts) start only when
// it commits, so a burst relayed in a few smaller passes has its first deliveries going out while the
// next pass writes (bench:webhooks). A pass stops at whole outbox rows where it can (a row cut inside is
// read whole again by the next pass); a row that would take it past PASS_MOST_HEARD is cut inside, and
// the place of the cut is kept beside the mark (outbox_relay.cut_after).

/** Heard happenings per pass: past this many the pass stops at the end of the row it is in and the next pass goes on at once. */
export const HEARD_PER_PASS = 256;
/** A pass hands over at most this many: a row that would take it past this is cut after its HEARD_PER_PASS-th happening. */
export const PASS_MOST_HEARD = 2 * HEARD_PER_PASS;

/** An outbox row past the mark, as RELAY_NEXT reads it (xid and id as text). */
export interface PassRow {
  xid: string;
  id: string;
}

/** A happening past the mark with its row's place, as RELAY_HAPPENINGS reads it. */
export interface PassHappening {
  id: string;
  row_xid: string;
  row_id: string;
}

export interface PassEnd {
  /** How many of the happenings (from the first) this pass hands over. */
  handed: number;
  /** How many of the rows (from the first) it passes whole: the mark moves to the last of them (none: it stays). */
  rows: number;
  /** The last happening handed over of the row past the new mark it stopped inside, or null. */
  cutAfter: string | null;
}

const sameRow = (a: PassHappening, b: PassHappening) => a.row_xid === b.row_xid && a.row_id === b.row_id;

/**
 * Where a pass over `rows` stops, handing on `happenings` (the heard ones of those rows, in order, without
 * those of the row `carried` was cut inside that went before). When the row of `carried`, if any, is the
 * first, the first PASS_MOST_HEARD + 1 happenings are enough: whatever follows them, the pass stops
 * within them; otherwise (a restore may reorder rows past the mark) it needs them all. A row is passed whole once its happenings
 * are all handed over; the row of an earlier cut stays cut (`carried`) until a pass reaches its end. A new
 * cut is made only where no earlier one is left behind it (a restore may reorder rows past the mark).
 */
export function passEnd(rows: PassRow[], happenings: PassHappening[], carried: string | null): PassEnd {
  const carriedRow = carried === null ? null : (BigInt(carried) >> 16n).toString();
  const through = (rowCount: number, handed: number, cutAfter: string | null): PassEnd => {
    const carriedPassed = carriedRow === null || rows.slice(0, rowCount).some((row) => row.id === carriedRow);
    return { handed, rows: rowCount, cutAfter: cutAfter ?? (carriedPassed ? null : carried) };
  };
  const placeOf = (h: PassHappening) => rows.findIndex((row) => row.xid === h.row_xid && row.id === h.row_id);
  if (happenings.length <= HEARD_PER_PASS) return through(rows.length, happenings.length, null);
  const at = happenings[HEARD_PER_PASS - 1];
  let end = HEARD_PER_PASS;
  while (end < happenings.length && sameRow(happenings[end], at)) end++;
  const place = placeOf(at);
  if (end > PASS_MOST_HEARD && (carriedRow === null || carriedRow === at.row_id || rows.slice(0, place).some((row) => row.id === carriedRow))) {
    return through(place, HEARD_PER_PASS, at.id);
  }
  return through(place + 1, end, null);
}
