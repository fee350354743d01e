// An address's health (docs/webhooks.md#health-disabling-and-recovery): the success rate over the last day,
// the last success, and whether it is disabled, why and since when. Shown in the list and on its page.
import { graphql } from '../../graphql';
import { Time } from '../../ui/time';

export const ENDPOINT_HEALTH = graphql(`
  fragment EndpointHealth on WebhookEndpoint {
    successRate
    lastSuccessAt
    disabledAt
    disabledReason
  }
`);

/** Succeeded attempts over all attempts in the last day, as a percent. */
export function SuccessRate({ rate }: { rate: number | null | undefined }) {
  if (rate == null) return <span className="muted">no attempts in the last day</span>;
  const percent = Math.round(rate * 1000) / 10;
  return <span className={`badge ${rate >= 0.95 ? 'good' : rate < 0.5 ? 'bad' : ''}`}>{percent}%</span>;
}

/** Enabled, or disabled with why and since when. */
export function EndpointState({
  disabledAt,
  disabledReason,
}: {
  disabledAt: string | null | undefined;
  disabledReason: string | null | undefined;
}) {
  if (!disabledAt) return <span className="badge good">Enabled</span>;
  return (
    <span>
      <span className="badge bad">Disabled</span> since <Time value={disabledAt} />: {disabledReason ?? 'by hand'}
    </span>
  );
}
