// The lines of a run's log (docs/webhooks.md#automation-posts: a posted line with host and status, a line
// marked not retried on a non-success status, or a could-not-post line with the cause). Property values and
// the start address never appear in a line.
import type { AutomationTrigger } from './trigger';

export interface LogLine {
  at: string;
  line: string;
}

/** What one http_request attempt came to (the sending function's outcome, reduced). */
export interface PostAnswer {
  ok: boolean;
  status?: number;
  error?: string;
}

export function startedLine(trigger: AutomationTrigger, propertyNames: readonly string[] = []): string {
  const by =
    trigger.kind === 'event'
      ? `event ${trigger.event}`
      : trigger.kind === 'webhook'
        ? 'its address'
        : [trigger.kind, trigger.stage, trigger.list, trigger.segment].filter(Boolean).join(' ');
  const facts = propertyNames.length ? ` with properties ${propertyNames.join(', ')}` : '';
  return `started by ${by}${facts}`;
}

/** host[:port] of the address, or the text itself when it is no URL (it was checked when saved). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 100);
  }
}

/** The one line an http_request step writes: posted, not retried, or could not post. */
export function httpRequestLine(url: string, answer: PostAnswer): string {
  const host = hostOf(url);
  if (answer.ok) return `posted to ${host}: ${answer.status}`;
  if (answer.status !== undefined) return `not retried: ${host} answered ${answer.status}`;
  return `could not post to ${host}: ${answer.error ?? 'no answer'}`;
}

export function emailSentLine(template: string, messageId: string): string {
  return `sent email ${template} (${messageId})`;
}

export function emailRefusedLine(template: string, code: string, message: string): string {
  return `email ${template} not sent: ${code}: ${message}`;
}

export function waitingLine(seconds: number, until: Date): string {
  return `waiting ${seconds} s, until ${until.toISOString()}`;
}

export const RESUMED_LINE = 'resumed after the wait';
export const FINISHED_LINE = 'finished';
export const INTERRUPTED_LINE = 'the worker stopped during this step; it runs again';
