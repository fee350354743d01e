// A segment's live count and, while it fills (its members found among the people it had before it
// existed or changed), how far the fill has gone; the page asks again every few seconds until it is done.
import { useEffect } from 'react';

const POLL_MS = 3000;

export interface Fill {
  done: number;
  total: number | null;
  startedAt: string | null;
}

/** Calls ask every POLL_MS while on is true (a segment fills), and stops once it is false. */
export function usePollWhile(on: boolean, ask: () => void): void {
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(ask, POLL_MS);
    return () => clearInterval(timer);
  }, [on, ask]);
}

const COUNT = new Intl.NumberFormat('en');

export function countOf(count: number): string {
  return `${COUNT.format(count)} ${count === 1 ? 'person' : 'people'}`;
}

/** Filled, or a progress bar of the people checked so far (without a total while it is still counted). */
export function FillProgress({ filling, fill, name }: { filling: boolean; fill: Fill | null; name: string }) {
  if (!filling) return <span className="badge good">Filled</span>;
  const done = fill?.done ?? 0;
  const total = fill?.total ?? null;
  const counted = total !== null;
  const words =
    total === null
      ? `${COUNT.format(done)} people checked`
      : `${COUNT.format(done)} of ${COUNT.format(total)} people checked`;
  return (
    <span className="fill">
      <progress max={total ?? undefined} value={counted ? done : undefined} aria-label={`Filling ${name}`} />{' '}
      <span className="muted">Filling: {words}</span>
    </span>
  );
}
