// People: search by email, name or ids, filter by stage, list, engaged and segment, sort by a column, page by
// cursor, with the count. The question lives in the URL: q, stage, list, engaged (yes/no), segment (its id), sort
// and dir (docs/graphql.md#sorting-people), after (the page's cursor) and back (the cursors of the pages before
// it, comma-separated, for Previous).
import { FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'wouter';
import { useQuery } from 'urql';
import type { ResultOf } from '../graphql';
import { Page } from '../ui/page';
import { Field, Select } from '../ui/controls';
import { Empty, Failed, Loading } from '../ui/state';
import { STAGES } from '../ui/stage';
import { LISTS, orderOf, PEOPLE, variablesOf } from './people/people-questions';
import { PeopleTable } from './people/people-table';

const TYPING_PAUSE_MS = 300;

type Connection = ResultOf<typeof PEOPLE>['people'];
type Changes = Record<string, string | undefined>;

const FILTERS = ['q', 'stage', 'list', 'engaged', 'segment', 'sort', 'dir'] as const;

/** The URL's search params with some changed (an empty value removes it). */
function withChanges(params: URLSearchParams, changes: Changes): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, value);
  }
  return next;
}

/** The first page in the back param (cursors are base64url, never this word, never a comma). */
const FIRST_PAGE = 'start';

/** The pages before this one, by their cursors (FIRST_PAGE for the first page). */
function backOf(params: URLSearchParams): string[] {
  return (params.get('back') ?? '').split(',').filter(Boolean);
}

export function PeoplePage() {
  const [params, setParams] = useSearchParams();
  const change = (changes: Changes, replace = false) => {
    // A new question starts again at the first page.
    const paging = FILTERS.some((key) => key in changes) ? { after: undefined, back: undefined } : {};
    setParams((now) => withChanges(now, { ...changes, ...paging }), { replace });
  };
  return (
    <Page title="People">
      <Question params={params} change={change} />
      <Answer params={params} change={change} />
    </Page>
  );
}

// The query sits below the URL's reader: urql updates its state while rendering when the variables
// change, which leaves useSearchParams (useSyncExternalStore) of the same component blind to the next
// return to an earlier URL (Previous, the browser's Back).
function Answer({ params, change }: { params: URLSearchParams; change: (changes: Changes) => void }) {
  const [result] = useQuery({ query: PEOPLE, variables: variablesOf(params) });
  if (result.error && !result.data) return <Failed error={result.error} />;
  if (!result.data) return <Loading what="Finding people" />;
  return <Results people={result.data.people} params={params} change={change} />;
}

function Question({
  params,
  change,
}: {
  params: URLSearchParams;
  change: (changes: Changes, replace?: boolean) => void;
}) {
  const q = params.get('q') ?? '';
  const [text, setText] = useState(q);
  const [lists] = useQuery({ query: LISTS });
  useEffect(() => setText(q), [q]);
  useEffect(() => {
    if (text.trim() === q) return;
    const timer = setTimeout(() => change({ q: text.trim() }, q !== ''), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
    // Only a change of the typed text starts the pause; a change of the URL resets the text above.
  }, [text]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== q) change({ q: text.trim() });
  };
  return (
    <form role="search" aria-label="People" className="filters" onSubmit={submit}>
      <Field
        label="Search people"
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        hint="Part of a name, email, account id or anon id."
      />
      <Select label="Stage" value={params.get('stage') ?? ''} onChange={(e) => change({ stage: e.target.value })}>
        <option value="">Any stage</option>
        {STAGES.map(([value, name]) => (
          <option key={value} value={value}>
            {name}
          </option>
        ))}
      </Select>
      <Select label="List" value={params.get('list') ?? ''} onChange={(e) => change({ list: e.target.value })}>
        <option value="">Any list</option>
        {(lists.data?.lists ?? []).map((list) => (
          <option key={list.id} value={list.address}>
            {list.name}
          </option>
        ))}
      </Select>
      <Select label="Engaged" value={params.get('engaged') ?? ''} onChange={(e) => change({ engaged: e.target.value })}>
        <option value="">Any</option>
        <option value="yes">Yes</option>
        <option value="no">No</option>
      </Select>
      <SegmentSelect value={params.get('segment') ?? ''} segments={lists.data?.segments ?? []} change={change} />
      <button type="submit">Search</button>
    </form>
  );
}

function SegmentSelect({
  value,
  segments,
  change,
}: {
  value: string;
  segments: readonly { id: string; name: string }[];
  change: (changes: Changes) => void;
}) {
  return (
    <Select label="Segment" value={value} onChange={(e) => change({ segment: e.target.value })}>
      <option value="">Any segment</option>
      {value && !segments.some((s) => s.id === value) ? <option value={value}>{value}</option> : null}
      {segments.map((segment) => (
        <option key={segment.id} value={segment.id}>
          {segment.name}
        </option>
      ))}
    </Select>
  );
}

const COUNT = new Intl.NumberFormat('en');

function countOf(people: Connection): string {
  const count = `${COUNT.format(people.totalCount)}${people.totalCountExact ? '' : '+'}`;
  return `${count} ${people.totalCount === 1 && people.totalCountExact ? 'person' : 'people'}`;
}

function Results({
  people,
  params,
  change,
}: {
  people: Connection;
  params: URLSearchParams;
  change: (changes: Changes) => void;
}) {
  const back = backOf(params);
  const after = params.get('after') || FIRST_PAGE;
  const next = () => change({ after: people.pageInfo.endCursor ?? undefined, back: [...back, after].join(',') });
  const before = back[back.length - 1];
  const previous = () =>
    change({ after: before === FIRST_PAGE ? undefined : before, back: back.slice(0, -1).join(',') });
  return (
    <>
      <p className="count" role="status">
        {countOf(people)}
      </p>
      {people.edges.length === 0 ? (
        <Empty>No one matches. Try fewer words or another filter.</Empty>
      ) : (
        <PeopleTable
          people={people.edges.map((edge) => edge.node)}
          {...orderOf(params)}
          onSort={(sort, direction) =>
            change({ sort: sort === 'created' ? undefined : sort, dir: direction === 'desc' ? undefined : direction })
          }
        />
      )}
      <nav className="pager" aria-label="Pages of people">
        <button type="button" className="secondary" disabled={back.length === 0} onClick={previous}>
          Previous
        </button>
        <button type="button" className="secondary" disabled={!people.pageInfo.hasNextPage} onClick={next}>
          Next
        </button>
        <span className="muted">Page {back.length + 1}</span>
      </nav>
    </>
  );
}
