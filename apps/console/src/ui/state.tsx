// Loading, empty and error states, the same on every page. Refusals are announced (role alert). A
// refusal shown in a form goes once the form is changed (the fix being typed), and comes back only
// with the next refusal; a request that failed says what to do and offers Retry, the menu still there.
import { ReactNode, RefObject, useEffect, useRef, useState } from 'react';
import type { CombinedError } from 'urql';
import { Refused, refusalOf } from '../client';
import { useRetry } from './frame';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="state" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>;
}

/** Whether the refusal was shown and its form changed since: then it is out of date. */
function useOutdatedByEdits(refused: Refused | null, shown: RefObject<HTMLElement | null>): boolean {
  const [outdated, setOutdated] = useState(false);
  // A new refusal is a new answer: shown again, even with the same words (a submit clears the old one).
  const answer = refused ? `${refused.code}\n${refused.message}\n${refused.field ?? ''}` : null;
  useEffect(() => {
    setOutdated(false);
    const form = shown.current?.closest('form');
    if (!answer || !form) return;
    const edited = () => setOutdated(true);
    form.addEventListener('input', edited);
    form.addEventListener('change', edited);
    return () => {
      form.removeEventListener('input', edited);
      form.removeEventListener('change', edited);
    };
  }, [answer, shown]);
  return outdated;
}

/** A refusal or failure: the service's own sentence (it names the fix), with its code for people who search for it. */
export function Alert({ refused }: { refused: Refused | null }) {
  const shown = useRef<HTMLParagraphElement>(null);
  const outdated = useOutdatedByEdits(refused, shown);
  if (!refused) return null;
  return (
    <p className="alert" role="alert" ref={shown} hidden={outdated}>
      {outdated ? null : (
        <>
          {refused.message} <span className="code">({refused.code})</span>
        </>
      )}
    </p>
  );
}

/** A read that failed: what happened, what to do, and Retry (the page's failed requests again). */
export function Failed({ error, retry }: { error: CombinedError | undefined; retry?: () => void }) {
  const retryPage = useRetry();
  const refused = refusalOf(error);
  if (!refused) return null;
  const unreachable = refused.code === 'unavailable';
  return (
    <div className="alert" role="alert">
      <p>
        {refused.message} {unreachable ? null : <span className="code">({refused.code})</span>}
      </p>
      <p className="what-to-do">
        <button type="button" onClick={retry ?? retryPage}>
          Retry
        </button>
        <span>Or choose another page from the menu.</span>
      </p>
    </div>
  );
}

/** Renders a query's answer once it is here; loading and errors in between. */
export function Loaded<T>({
  result,
  what,
  children,
}: {
  result: { fetching: boolean; data?: T; error?: CombinedError };
  what?: string;
  children: (data: T) => ReactNode;
}) {
  if (result.error && !result.data) return <Failed error={result.error} />;
  if (!result.data) return <Loading what={what} />;
  return <>{children(result.data)}</>;
}
