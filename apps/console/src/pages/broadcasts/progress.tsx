// A broadcast's state and how far its send has gone (docs/graphql.md#broadcasts): recipients reached (sent,
// skipped when their turn came, failed for good) of the audience fixed when sending started, and those opened.
const COUNT = new Intl.NumberFormat('en');

const STATE_NAMES: Record<string, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  cancelled: 'Cancelled',
};

const STATE_TONE: Record<string, string> = { sent: 'good', cancelled: 'bad' };

export function StateBadge({ state }: { state: string }) {
  return <span className={`badge ${STATE_TONE[state] ?? ''}`.trim()}>{STATE_NAMES[state] ?? state}</span>;
}

export interface Tally {
  name: string;
  state: string;
  audience?: number | null;
  sent: number;
  failed: number;
  skipped: number;
}

/** Recipients whose turn has come and gone: sent, skipped or failed for good. */
export const reachedOf = (b: Tally) => b.sent + b.failed + b.skipped;

/** A bar of the recipients reached of the audience; nothing before sending starts (the audience is not fixed yet). */
export function ProgressBar({ broadcast }: { broadcast: Tally }) {
  const audience = broadcast.audience;
  if (audience === null || audience === undefined) return <span className="muted">Not started</span>;
  const reached = reachedOf(broadcast);
  return (
    <span className="send-progress">
      <progress
        max={Math.max(audience, 1)}
        value={audience === 0 ? 1 : reached}
        aria-label={`Sending ${broadcast.name}`}
      />{' '}
      <span className="muted">
        {COUNT.format(reached)} of {COUNT.format(audience)}
      </span>
    </span>
  );
}

export interface Progress extends Tally {
  pending: number;
  cancelled: number;
  opened: number;
  clicked: number;
  skippedBy: readonly { reason: string; count: number }[];
}

const REASONS: Record<string, string> = {
  unsubscribed: 'left the list',
  left_segment: 'left the segment',
  no_email: 'no email address',
  not_engaged: 'not engaged',
  opted_out: 'opted out of email',
  undeliverable: 'undeliverable address',
  erased: 'erased',
  merged: 'merged into another person',
};

export const reasonName = (reason: string) => REASONS[reason] ?? reason.replace(/_/g, ' ');

/** The numbers behind the bar: sent, skipped by reason, failed, still to go, cancelled, opened and clicked. */
export function ProgressFacts({ broadcast }: { broadcast: Progress }) {
  const n = (value: number) => COUNT.format(value);
  return (
    <dl className="facts" aria-label="Progress of the send">
      <dt>Audience</dt>
      <dd>
        {broadcast.audience === null || broadcast.audience === undefined
          ? 'fixed when sending starts'
          : n(broadcast.audience)}
      </dd>
      <dt>Sent</dt>
      <dd>{n(broadcast.sent)}</dd>
      <dt>Skipped</dt>
      <dd>
        {n(broadcast.skipped)}
        {broadcast.skippedBy.length > 0 ? (
          <ul className="reasons" aria-label="Skipped by reason">
            {broadcast.skippedBy.map((s) => (
              <li key={s.reason}>
                {reasonName(s.reason)}: {n(s.count)}
              </li>
            ))}
          </ul>
        ) : null}
      </dd>
      <dt>Failed</dt>
      <dd>{n(broadcast.failed)}</dd>
      <dt>Still to go</dt>
      <dd>{n(broadcast.pending)}</dd>
      {broadcast.cancelled > 0 ? (
        <>
          <dt>Cancelled</dt>
          <dd>{n(broadcast.cancelled)}</dd>
        </>
      ) : null}
      <dt>Opened</dt>
      <dd>{n(broadcast.opened)}</dd>
      <dt>Clicked</dt>
      <dd>{n(broadcast.clicked)}</dd>
    </dl>
  );
}
