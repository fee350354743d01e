// The question a chart asks (docs/graphql.md#activity-and-charts, docs/console.md#charts), as the URL keeps it:
// one or more events, measure, interval, range (a quick choice of days, or custom UTC dates from and to) and
// breakdown; and the period just before the range, which the totals are set against. Buckets are UTC.

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

/** Events charted at once, a series (or a breakdown's series) each. */
export const MAX_EVENTS = 5;

export interface Question {
  /** In the URL as events=a,b (event=a, the older address, still reads); empty: the most frequent one. */
  events: string[];
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

function eventsOf(params: URLSearchParams): string[] {
  const named = (params.get('events') ?? params.get('event') ?? '').split(',').filter(Boolean);
  return [...new Set(named)].slice(0, MAX_EVENTS);
}

export function questionOf(params: URLSearchParams): Question {
  const range = known(RANGES, params.get('range'), '30d');
  const quick = quickDates(range === 'custom' ? '30d' : range);
  const custom = range === 'custom';
  return {
    events: eventsOf(params),
    measure: known(MEASURES, params.get('measure'), 'count'),
    interval: known(INTERVALS, params.get('interval'), 'day'),
    range,
    from: (custom && params.get('from')) || quick.from,
    to: (custom && params.get('to')) || quick.to,
    breakdown: known(BREAKDOWNS, params.get('breakdown'), ''),
  };
}

/** chart(input) of one event: whole UTC days from the start of from to the end of to. */
export function chartInput(question: Question, event: string, dates: { from: string; to: string } = question) {
  return {
    event,
    measure: question.measure,
    interval: question.interval,
    from: `${dates.from}T00:00:00.000Z`,
    to: `${dates.to}T23:59:59.999Z`,
    breakdown: question.breakdown || null,
  };
}

/** The period just before the question's: as many days, ending the day before it starts. */
export function previousDates(question: Pick<Question, 'from' | 'to'>): { from: string; to: string } {
  const from = Date.parse(`${question.from}T00:00:00.000Z`);
  const days = Math.round((Date.parse(`${question.to}T00:00:00.000Z`) - from) / DAY_MS) + 1;
  return { from: dateOf(from - days * DAY_MS), to: dateOf(from - DAY_MS) };
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
    `${nameIn(MEASURES, question.measure)} of ${question.events.join(', ')} per ${question.interval}, ` +
    `${question.from} to ${question.to} (UTC)${by}`
  );
}
