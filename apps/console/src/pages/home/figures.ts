// How the home page reads its figures (docs/console.md#home): a change against yesterday, webhook
// addresses grouped by health, automations whose latest runs failed, the last hour's posts by answer.

/** A change in words: "+50%", "−25%", "no change"; against nothing, "new" or "no change". */
export function changeInWords(now: number, before: number): string {
  if (now === before) return 'no change';
  if (before === 0) return 'new';
  const percent = Math.round(((now - before) / before) * 100);
  return `${percent > 0 ? '+' : '−'}${Math.abs(percent)}%`;
}

/** The health groups, in the order shown; the thresholds are the webhook list's badges'. */
export const HEALTH_GROUPS = [
  ['failing', 'Failing (under 95% of attempts succeeded in the last day)'],
  ['disabled', 'Disabled'],
  ['quiet', 'No attempts in the last day'],
  ['healthy', 'Healthy (95% or more succeeded)'],
] as const;
export type Health = (typeof HEALTH_GROUPS)[number][0];

export function healthOf(endpoint: { disabledAt?: string | null; successRate?: number | null }): Health {
  if (endpoint.disabledAt) return 'disabled';
  if (endpoint.successRate == null) return 'quiet';
  return endpoint.successRate >= 0.95 ? 'healthy' : 'failing';
}

/** Runs read per automation: a failure among them counts. */
export const RUNS_READ = 20;

export function failedRuns(runs: ReadonlyArray<{ status: string }>): number {
  return runs.filter((run) => run.status === 'failed').length;
}

/** The posts of the heartbeat's rows by answer, most first. */
export function postsByAnswer(rows: ReadonlyArray<{ answer: string; count: number }>): [string, number][] {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.answer, (totals.get(row.answer) ?? 0) + row.count);
  return [...totals].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
}
