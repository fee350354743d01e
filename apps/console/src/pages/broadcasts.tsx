// Broadcasts (docs/graphql.md#broadcasts): one email to a list or a live segment, sent once to each person. The
// list shows each one's state and how far its send has gone, asked again every few seconds while one is sending;
// owners and admins compose a new one below (saved as a draft, sent or scheduled from its page).
import { useCallback, useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { Page, Section } from '../ui/page';
import { Pager, usePages } from '../ui/pager';
import { Empty, Loaded } from '../ui/state';
import { Time } from '../ui/time';
import { usePollWhile } from './segments/fill';
import { useAudiences } from './broadcasts/audience';
import { BroadcastDraft, ComposeForm } from './broadcasts/compose';
import { ProgressBar, StateBadge } from './broadcasts/progress';
import './broadcasts/broadcasts.css';

const BROADCASTS_PAGE_SIZE = 25;

const BROADCASTS = graphql(`
  query Broadcasts($first: Int, $after: String) {
    broadcasts(first: $first, after: $after) {
      pageInfo {
        endCursor
        hasNextPage
      }
      edges {
        node {
          id
          name
          state
          list
          segment
          audience
          sent
          failed
          skipped
          scheduledAt
          createdAt
        }
      }
    }
  }
`);

const CREATE = graphql(`
  mutation CreateBroadcast($input: CreateBroadcastInput!) {
    createBroadcast(input: $input) {
      id
      name
      state
    }
  }
`);

type Broadcast = ResultOf<typeof BROADCASTS>['broadcasts']['edges'][number]['node'];

/** Where the send stands: the bar while it goes or once over, the time for a scheduled one. */
function Where({ broadcast }: { broadcast: Broadcast }) {
  if (broadcast.state === 'scheduled')
    return (
      <span className="muted">
        at <Time value={broadcast.scheduledAt} />
      </span>
    );
  return <ProgressBar broadcast={broadcast} />;
}

function BroadcastTable({ broadcasts }: { broadcasts: readonly Broadcast[] }) {
  const audiences = useAudiences();
  const segmentName = (id: string | null) => audiences.data?.segments.find((s) => s.id === id)?.name ?? 'a segment';
  if (broadcasts.length === 0)
    return <Empty>No broadcasts yet: compose the first one below; it is saved as a draft until you send it.</Empty>;
  return (
    <table aria-label="Broadcasts">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">To</th>
          <th scope="col">State</th>
          <th scope="col">Progress</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {broadcasts.map((b) => (
          <tr key={b.id}>
            <td>
              <Link href={`/broadcasts/${encodeURIComponent(b.id)}`}>{b.name}</Link>
            </td>
            <td>{b.list ? <code>{b.list}</code> : segmentName(b.segment)}</td>
            <td>
              <StateBadge state={b.state} />
            </td>
            <td>
              <Where broadcast={b} />
            </td>
            <td>
              <Time value={b.createdAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NewBroadcast() {
  const [result, create] = useMutation(CREATE);
  const [, navigate] = useLocation();
  const submit = async (draft: BroadcastDraft) => {
    const answer = await create({ input: draft });
    if (answer.data) navigate(`/broadcasts/${encodeURIComponent(answer.data.createBroadcast.id)}`);
  };
  return (
    <Section title="New broadcast">
      <ComposeForm fetching={result.fetching} refused={refusalOf(result.error)} onSubmit={submit} />
    </Section>
  );
}

export function BroadcastsPage() {
  const pages = usePages();
  const [result, reexecute] = useQuery({
    query: BROADCASTS,
    variables: { first: BROADCASTS_PAGE_SIZE, after: pages.after },
    context: useMemo(() => ({ additionalTypenames: ['Broadcast'] }), []),
  });
  const connection = result.data?.broadcasts;
  const sending = connection?.edges.some((e) => e.node.state === 'sending') ?? false;
  usePollWhile(
    sending,
    useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]),
  );
  return (
    <Page title="Broadcasts">
      <Loaded result={result} what="Loading broadcasts">
        {(data) => <BroadcastTable broadcasts={data.broadcasts.edges.map((e) => e.node)} />}
      </Loaded>
      {pages.previous || connection?.pageInfo.hasNextPage ? (
        <Pager
          pages={pages}
          pageInfo={connection?.pageInfo}
          label="Pages of broadcasts"
          words={['Newer', 'Older']}
          numbered={false}
        />
      ) : null}
      <NewBroadcast />
    </Page>
  );
}
