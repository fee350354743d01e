// A person's timeline, newest first: the first page comes with the person's query; More reads the
// next page by its cursor, on demand. The type filter is the URL's types param (comma-separated).
import { FormEvent, ReactNode, useEffect, useState } from 'react';
import { useClient } from 'urql';
import { Refused, refusalOf } from '../../client';
import { FragmentOf, graphql, readFragment, ResultOf } from '../../graphql';
import { Section } from '../../ui/page';
import { Field } from '../../ui/controls';
import { Alert, Empty } from '../../ui/state';
import { Time } from '../../ui/time';

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
  firstPage: FragmentOf<typeof TIMELINE_PAGE>;
  onTypes(types: string[]): void;
  /** The note form, shown above the entries. */
  children?: ReactNode;
}

export function Timeline({ personId, types, firstPage, onTypes, children }: TimelineProps) {
  const first = readFragment(TIMELINE_PAGE, firstPage);
  const more = useMore(personId, types, first.pageInfo);
  const entries = [...first.edges.map((e) => e.node), ...more.entries];
  return (
    <Section title="Timeline">
      <TypeFilter types={types} onTypes={onTypes} />
      {children}
      {entries.length === 0 ? (
        <Empty>{types.length ? 'No entries of these types.' : 'Nothing on the timeline yet.'}</Empty>
      ) : (
        <ol className="timeline" aria-label="Timeline">
          {entries.map((entry) => (
            <TimelineItem key={entry.id} entry={entry} />
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

function TimelineItem({ entry }: { entry: Entry }) {
  const properties =
    entry.properties && typeof entry.properties === 'object' && Object.keys(entry.properties).length
      ? JSON.stringify(entry.properties)
      : null;
  return (
    <li>
      <span className="type">{entry.type}</span> <Time value={entry.occurredAt} />
      {entry.value !== null && entry.value !== undefined ? <span> · value {entry.value}</span> : null}
      {entry.detail ? <div className="detail">{entry.detail}</div> : null}
      {properties ? <div className="muted properties">{properties}</div> : null}
    </li>
  );
}

function TypeFilter({ types, onTypes }: { types: string[]; onTypes(types: string[]): void }) {
  const [text, setText] = useState(types.join(', '));
  const shown = types.join(', ');
  useEffect(() => setText(shown), [shown]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onTypes(typesOf(text));
  };
  return (
    <form className="filters" onSubmit={submit}>
      <Field
        label="Event types"
        value={text}
        onChange={(e) => setText(e.target.value)}
        hint="Comma-separated, like purchase, note; empty shows every type."
      />
      <button type="submit" className="secondary">
        Filter
      </button>
      {types.length ? (
        <button type="button" className="secondary" onClick={() => onTypes([])}>
          Show every type
        </button>
      ) : null}
    </form>
  );
}

/** The types of a comma-separated text (or of the URL's types param). */
export function typesOf(text: string | null): string[] {
  return (text ?? '')
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);
}
