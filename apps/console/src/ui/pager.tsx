// Pages of a GraphQL connection by cursor, kept in the component (a page's list of members, recipients,
// broadcasts): the cursors of the pages before this one make Previous, the connection's endCursor makes Next.
import { useState } from 'react';

export interface Pages {
  /** The cursor to ask the connection with (null: the first page). */
  after: string | null;
  /** 1 for the first page. */
  page: number;
  previous: (() => void) | null;
  /** Moves to the page after `endCursor`. */
  next: (endCursor: string | null | undefined) => void;
  /** Back to the first page (a filter changed). */
  reset: () => void;
}

export function usePages(): Pages {
  const [after, setAfter] = useState<string | null>(null);
  const [back, setBack] = useState<(string | null)[]>([]);
  return {
    after,
    page: back.length + 1,
    previous: back.length
      ? () => {
          setAfter(back[back.length - 1] ?? null);
          setBack(back.slice(0, -1));
        }
      : null,
    next: (endCursor) => {
      setBack([...back, after]);
      setAfter(endCursor ?? null);
    },
    reset: () => {
      setAfter(null);
      setBack([]);
    },
  };
}

/** Previous and Next (named as the list reads: Newer and Older for a list newest first) and the page's number. */
export function Pager({
  pages,
  pageInfo,
  label,
  words = ['Previous', 'Next'],
  numbered = true,
}: {
  pages: Pages;
  pageInfo: { hasNextPage: boolean; endCursor?: string | null } | undefined;
  label: string;
  words?: [string, string];
  numbered?: boolean;
}) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" disabled={!pages.previous} onClick={() => pages.previous?.()}>
        {words[0]}
      </button>
      <button
        type="button"
        className="secondary"
        disabled={!pageInfo?.hasNextPage}
        onClick={() => pages.next(pageInfo?.endCursor)}
      >
        {words[1]}
      </button>
      {numbered ? <span className="muted">Page {pages.page}</span> : null}
    </nav>
  );
}
