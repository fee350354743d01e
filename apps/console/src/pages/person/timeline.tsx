// A person's timeline, newest first: the first page comes with the person's query; More reads the next page by
// its cursor, on demand. The kinds shown are the URL's types param (comma-separated), ticked among the kinds the
// timeline holds (Person.timelineKinds); none ticked shows every kind.
import { ReactNode, useEffect, useState } from 'react';
import { useClient } from 'urql';
import { Refused, refusalOf } from '../../client';
import { FragmentOf, graphql, readFragment, ResultOf } from '../../graphql';
import { Section } from '../../ui/page';
import { Alert, Empty } from '../../ui/state';
import { kindName, TimelineRow } from './timeline-row';

export const TIMELINE_PAGE_SIZE = 50;

export const TIMELINE_PAGE = graphql(`
  fragment TimelinePage on TimelineConnection {
    edges {
      node {
        id
        type
        occurredAt
        value
        detail
        properties
        source
        email {
          subject
          status
          direction
        }
      }
    }
    pageInfo {
      endCursor
      hasNextPage
    }
  }
`);

const MORE = graphql(
  `
    query TimelineMore($id: String!, $after: String, $first: Int, $types: [String!]) {
      person(id: $id) {
        id
        timeline(after: $after, first: $first, types: $types) {
          ...TimelinePage
        }
      }
    }
  `,
  [TIMELINE_PAGE],
);

type Entry = ResultOf<typeof TIMELINE_PAGE>['edges'][number]['node'];

interface TimelineProps {
  personId: string;
  types: string[];
  /** The kinds on the whole timeline, with how many of each. */
  kinds: Array<{ type: string; count: number }>;
  firstPage: FragmentOf<typeof TIMELINE_PAGE>;
  onTypes(types: string[]): void;
  /** The note form, shown above the entries. */
  children?: ReactNode;
}

export function Timeline({ personId, types, kinds, firstPage, onTypes, children }: TimelineProps) {
  const first = readFragment(TIMELINE_PAGE, firstPage);
  const more = useMore(personId, types, first.pageInfo);
  const entries = [...first.edges.map((e) => e.node), ...more.entries];
  return (
    <Section title="Timeline">
      {children}
      <KindFilter kinds={kinds} types={types} onTypes={onTypes} />
      {entries.length === 0 ? (
        <Empty>{types.length ? 'No entries of these kinds.' : 'Nothing on the timeline yet.'}</Empty>
      ) : (
        <ol className="timeline" aria-label="Timeline">
          {entries.map((entry) => (
            <TimelineRow key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      <Alert refused={more.refused} />
      {more.hasNextPage ? (
        <button type="button" className="secondary" onClick={more.load} disabled={more.loading}>
          {more.loading ? 'Loading more…' : 'More'}
        </button>
      ) : null}
    </Section>
  );
}

/** The pages read after the first, by cursor; they start again when the first page changes. */
function useMore(personId: string, types: string[], firstInfo: { endCursor?: string | null; hasNextPage: boolean }) {
  const client = useClient();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [cursor, setCursor] = useState(firstInfo);
  const [loading, setLoading] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);
  useEffect(() => {
    setEntries([]);
    setCursor(firstInfo);
    setRefused(null);
    // The first page's cursor names the first page (a new note or another filter gives a new one).
  }, [firstInfo.endCursor, firstInfo.hasNextPage]);
  const load = async () => {
    setLoading(true);
    const variables = {
      id: personId,
      after: cursor.endCursor,
      first: TIMELINE_PAGE_SIZE,
      types: types.length ? types : undefined,
    };
    const result = await client.query(MORE, variables, { requestPolicy: 'network-only' }).toPromise();
    setLoading(false);
    const timeline = result.data?.person?.timeline;
    if (!timeline)
      return setRefused(refusalOf(result.error) ?? { code: 'no_such_person', message: 'This person is gone.' });
    const page = readFragment(TIMELINE_PAGE, timeline);
    setEntries((before) => [...before, ...page.edges.map((e) => e.node)]);
    setCursor(page.pageInfo);
    setRefused(null);
  };
  return { entries, loading, refused, hasNextPage: cursor.hasNextPage, load: () => void load() };
}

/** A checkbox per kind on the timeline (and per kind in the URL the timeline no longer holds). */
function KindFilter({
  kinds,
  types,
  onTypes,
}: {
  kinds: Array<{ type: string; count: number }>;
  types: string[];
  onTypes(types: string[]): void;
}) {
  const offered = [
    ...kinds,
    ...types.filter((t) => !kinds.some((k) => k.type === t)).map((type) => ({ type, count: 0 })),
  ];
  if (offered.length < 2 && types.length === 0) return null;
  const toggle = (type: string, on: boolean) =>
    onTypes(on ? [...types.filter((t) => t !== type), type] : types.filter((t) => t !== type));
  return (
    <fieldset className="kinds">
      <legend>Show</legend>
      {offered.map(({ type, count }) => (
        <label key={type} className="kind-choice">
          <input type="checkbox" checked={types.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />
          <span>{kindName(type)}</span>
          <span className="count">{count}</span>
        </label>
      ))}
      {types.length ? (
        <button type="button" className="secondary" onClick={() => onTypes([])}>
          Show every kind
        </button>
      ) : null}
    </fieldset>
  );
}

/** The types of a comma-separated text (the URL's types param). */
export function typesOf(text: string | null): string[] {
  return (text ?? '')
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);
}
