// A chart view's question in the URL: each change a new history entry, an empty value removing its key.
import { useCallback } from 'react';
import { useSearchParams } from 'wouter';
import type { AskChange } from './question-form';

export function useAsk(): [URLSearchParams, AskChange] {
  const [params, setParams] = useSearchParams();
  const ask: AskChange = useCallback(
    (change) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        for (const [name, value] of Object.entries(change)) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      }),
    [setParams],
  );
  return [params, ask];
}
