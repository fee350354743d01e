// Moments on screen: the exact time in the reader's zone (Time), or as people say it (When).
const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A moment in the reader's own time zone, the exact ISO time kept for machines and on hover. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">never</span>;
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {FORMAT.format(date)}
    </time>
  );
}

// A moment as people say it ("3 hours ago"), the exact time on hover and for machines: the person's page, People.
const EXACT = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });
const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS: Array<[unit: Intl.RelativeTimeFormatUnit, seconds: number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** How long ago (or ahead) a moment is, in the largest whole unit: "just now" under a minute. */
function relativeTo(date: Date, now: Date): string {
  const seconds = (date.getTime() - now.getTime()) / 1000;
  for (const [unit, size] of STEPS)
    if (Math.abs(seconds) >= size) return RELATIVE.format(Math.trunc(seconds / size), unit);
  return 'just now';
}

export function When({ value, none = 'never' }: { value: unknown; none?: string }) {
  if (typeof value !== 'string' || !value) return <span className="muted">{none}</span>;
  const date = new Date(value);
  return (
    <time className="when" dateTime={date.toISOString()} title={EXACT.format(date)}>
      {relativeTo(date, new Date())}
    </time>
  );
}
