// Loading, empty and error states, the same on every page. Refusals are announced (role alert).
import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { Refused, refusalOf } from '../client';

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

/** A refusal or failure: the service's own sentence, with its code for people who search for it. */
export function Alert({ refused }: { refused: Refused | null }) {
  if (!refused) return null;
  return (
    <p className="alert" role="alert">
      {refused.message} <span className="code">({refused.code})</span>
    </p>
  );
}

export function Failed({ error }: { error: CombinedError | undefined }) {
  return <Alert refused={refusalOf(error)} />;
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
