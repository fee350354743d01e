// A segment's members (Segment.people), a page of them at a time by cursor, each linking to their page.
import { useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from 'urql';
import { graphql } from '../../graphql';
import { Section } from '../../ui/page';
import { Empty, Failed, Loading } from '../../ui/state';
import { stageName } from '../../ui/stage';
import { Time } from '../../ui/time';

export const MEMBERS_PAGE_SIZE = 25;

const MEMBERS = graphql(`
  query SegmentMembers($id: ID!, $first: Int, $after: String) {
    segment(id: $id) {
      id
      people(first: $first, after: $after) {
        pageInfo {
          endCursor
          hasNextPage
        }
        edges {
          node {
            id
            email
            name
            stage
            createdAt
          }
        }
      }
    }
  }
`);

/** The pages before this one, by their cursors (null for the first page). */
type Back = (string | null)[];

export function Members({ id, name }: { id: string; name: string }) {
  const [after, setAfter] = useState<string | null>(null);
  const [back, setBack] = useState<Back>([]);
  const [result] = useQuery({
    query: MEMBERS,
    variables: { id, first: MEMBERS_PAGE_SIZE, after },
    requestPolicy: 'cache-and-network',
  });
  const people = result.data?.segment?.people;
  const next = () => {
    setBack([...back, after]);
    setAfter(people?.pageInfo.endCursor ?? null);
  };
  const previous = () => {
    setAfter(back[back.length - 1] ?? null);
    setBack(back.slice(0, -1));
  };
  return (
    <Section title="Members">
      {result.error && !result.data ? <Failed error={result.error} /> : null}
      {!people ? (
        result.error ? null : (
          <Loading what="Loading members" />
        )
      ) : people.edges.length === 0 ? (
        <Empty>No one is in {name} yet.</Empty>
      ) : (
        <table aria-label={`Members of ${name}`}>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Stage</th>
              <th scope="col">First seen</th>
            </tr>
          </thead>
          <tbody>
            {people.edges.map(({ node }) => (
              <tr key={node.id}>
                <td>
                  <Link href={`/people/${encodeURIComponent(node.id)}`}>{node.email ?? node.name ?? node.id}</Link>
                </td>
                <td>{stageName(node.stage)}</td>
                <td>
                  <Time value={node.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="pager" aria-label="Pages of members">
        <button type="button" className="secondary" disabled={back.length === 0} onClick={previous}>
          Previous
        </button>
        <button type="button" className="secondary" disabled={!people?.pageInfo.hasNextPage} onClick={next}>
          Next
        </button>
        <span className="muted">Page {back.length + 1}</span>
      </nav>
    </Section>
  );
}
