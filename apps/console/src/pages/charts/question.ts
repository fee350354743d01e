// The question a chart asks (docs/graphql.md#activity-and-charts), as the URL keeps it: event, measure, interval,
// range (a quick choice of days, or custom UTC dates from and to) and breakdown. Buckets are UTC.

export const MEASURES: [string, string][] = [
  ['count', 'Count of events'],
  ['sum_value', 'Sum of value'],
  ['people', 'Distinct people'],
];
export const INTERVALS: [string, string][] = [
  ['hour', 'Hour'],
  ['day', 'Day'],
  ['week', 'Week (from Monday)'],
  ['month', 'Month'],
];
export const BREAKDOWNS: [string, string][] = [
  ['', 'None'],
  ['source', 'First-touch source'],
  ['medium', 'First-touch medium'],
  ['campaign', 'First-touch campaign'],
];
export const RANGES: [string, string][] = [
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['90d', 'Last 90 days'],
  ['custom', 'Custom dates'],
];

export interface Question {
  event: string;
  measure: string;
  interval: string;
  range: string;
  /** UTC dates, YYYY-MM-DD, both inclusive. */
  from: string;
  to: string;
  breakdown: string;
}

const DAY_MS = 86_400_000;
const dateOf = (at: number) => new Date(at).toISOString().slice(0, 10);
const known = (choices: [string, string][], value: string | null, fallback: string) =>
  choices.some(([v]) => v === value) ? value! : fallback;

/** The days a quick range covers: today (UTC) and the days before it. */
function quickDates(range: string, now = Date.now()): { from: string; to: string } {
  const days = Number.parseInt(range, 10) || 30;
  return { from: dateOf(now - (days - 1) * DAY_MS), to: dateOf(now) };
}

export function questionOf(params: URLSearchParams): Question {
  const range = known(RANGES, params.get('range'), '30d');
  const quick = quickDates(range === 'custom' ? '30d' : range);
  const custom = range === 'custom';
  return {
    event: params.get('event') ?? '',
    measure: known(MEASURES, params.get('measure'), 'count'),
    interval: known(INTERVALS, params.get('interval'), 'day'),
    range,
    from: (custom && params.get('from')) || quick.from,
    to: (custom && params.get('to')) || quick.to,
    breakdown: known(BREAKDOWNS, params.get('breakdown'), ''),
  };
}

/** chart(input): whole UTC days from the start of from to the end of to. */
export function chartInput(question: Question) {
  return {
    event: question.event,
    measure: question.measure,
    interval: question.interval,
    from: `${question.from}T00:00:00.000Z`,
    to: `${question.to}T23:59:59.999Z`,
    breakdown: question.breakdown || null,
  };
}

/** A bucket's start as its interval reads it, in UTC. */
export function bucketName(at: string, interval: string): string {
  const iso = new Date(at).toISOString();
  if (interval === 'hour') return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  if (interval === 'month') return iso.slice(0, 7);
  if (interval === 'week') return `week of ${iso.slice(0, 10)}`;
  return iso.slice(0, 10);
}

const nameIn = (choices: [string, string][], value: string) => choices.find(([v]) => v === value)?.[1] ?? value;

export function questionInWords(question: Question): string {
  const by = question.breakdown ? `, by ${nameIn(BREAKDOWNS, question.breakdown).toLowerCase()}` : '';
  return (
    `${nameIn(MEASURES, question.measure)} of ${question.event} per ${question.interval}, ${question.from} to ` +
    `${question.to} (UTC)${by}`
  );
}
