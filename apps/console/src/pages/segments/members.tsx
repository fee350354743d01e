// A segment's members (Segment.people), a page of them at a time by cursor, each linking to their page.
import { Link } from 'wouter';
import { useQuery } from 'urql';
import { graphql } from '../../graphql';
import { Section } from '../../ui/page';
import { Pager, usePages } from '../../ui/pager';
import { Empty, Failed, Loading } from '../../ui/state';
import { stageName } from '../../ui/stage';
import { Time } from '../../ui/time';

const MEMBERS_PAGE_SIZE = 25;

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

export function Members({ id, name }: { id: string; name: string }) {
  const pages = usePages();
  const [result] = useQuery({
    query: MEMBERS,
    variables: { id, first: MEMBERS_PAGE_SIZE, after: pages.after },
    requestPolicy: 'cache-and-network',
  });
  const people = result.data?.segment?.people;
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
      <Pager pages={pages} pageInfo={people?.pageInfo} label="Pages of members" />
    </Section>
  );
}
