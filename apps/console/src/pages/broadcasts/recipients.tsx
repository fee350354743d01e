// A broadcast's recipients (Broadcast.recipients), a page at a time by cursor, all or of one state, each with what
// happened (a skip's reason, a failure's error) and when, linking to the person.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from 'urql';
import { graphql } from '../../graphql';
import { Select } from '../../ui/controls';
import { Section } from '../../ui/page';
import { Pager, usePages } from '../../ui/pager';
import { Empty, Failed, Loading } from '../../ui/state';
import { Time } from '../../ui/time';
import { reasonName } from './progress';

const RECIPIENTS_PAGE_SIZE = 25;

const RECIPIENTS = graphql(`
  query BroadcastRecipients($id: ID!, $first: Int, $after: String, $state: String) {
    broadcast(id: $id) {
      id
      recipients(first: $first, after: $after, state: $state) {
        pageInfo {
          endCursor
          hasNextPage
        }
        edges {
          node {
            personId
            state
            reason
            attempts
            sentAt
            updatedAt
            person {
              id
              email
              name
            }
          }
        }
      }
    }
  }
`);

const STATES: [string, string][] = [
  ['', 'All'],
  ['queued', 'Queued'],
  ['sending', 'Sending'],
  ['sent', 'Sent'],
  ['skipped', 'Skipped'],
  ['failed', 'Failed'],
  ['cancelled', 'Cancelled'],
];

/** What happened to one recipient, in words: a skip's reason named, an error as the provider said it. */
function outcome(state: string, reason: string | null): string {
  if (!reason) return '';
  return state === 'skipped' ? reasonName(reason) : reason;
}

/** `revision` changes when the broadcast's numbers do (the page re-reads it while sending). */
export function Recipients({ id, name, revision }: { id: string; name: string; revision: string }) {
  const [state, setState] = useState('');
  const pages = usePages();
  const [result, reexecute] = useQuery({
    query: RECIPIENTS,
    variables: { id, first: RECIPIENTS_PAGE_SIZE, after: pages.after, state: state || null },
    requestPolicy: 'cache-and-network',
  });
  // The page read the broadcast again and its numbers moved: this page of recipients is read again too.
  const seen = useRef(revision);
  useEffect(() => {
    if (seen.current === revision) return;
    seen.current = revision;
    reexecute({ requestPolicy: 'network-only' });
  }, [revision, reexecute]);
  const recipients = result.data?.broadcast?.recipients;
  const choose = (next: string) => {
    setState(next);
    pages.reset();
  };
  return (
    <Section title="Recipients">
      <div className="filters">
        <Select label="State" value={state} onChange={(e) => choose(e.target.value)}>
          {STATES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </div>
      {result.error && !result.data ? <Failed error={result.error} /> : null}
      {!recipients ? (
        result.error ? null : (
          <Loading what="Loading recipients" />
        )
      ) : recipients.edges.length === 0 ? (
        <Empty>
          {state ? `No recipient of ${name} is ${state}.` : 'Nobody yet: the audience is fixed when sending starts.'}
        </Empty>
      ) : (
        <table aria-label={`Recipients of ${name}`}>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">State</th>
              <th scope="col">Why</th>
              <th scope="col">Sent</th>
              <th scope="col">Changed</th>
            </tr>
          </thead>
          <tbody>
            {recipients.edges.map(({ node }) => (
              <tr key={node.personId}>
                <td>
                  {node.person ? (
                    <Link href={`/people/${encodeURIComponent(node.person.id)}`}>
                      {node.person.email ?? node.person.name ?? node.person.id}
                    </Link>
                  ) : (
                    <span className="muted">{node.personId} (erased or merged)</span>
                  )}
                </td>
                <td>{node.state}</td>
                <td>{outcome(node.state, node.reason)}</td>
                <td>
                  <Time value={node.sentAt} />
                </td>
                <td>
                  <Time value={node.updatedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager pages={pages} pageInfo={recipients?.pageInfo} label="Pages of recipients" />
    </Section>
  );
}
