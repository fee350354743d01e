// The segments a person is in now (Person.segments, docs/graphql.md#segments), each a chip linking to it.
import { Link } from 'wouter';
import { FragmentOf, graphql, readFragment } from '../../graphql';
import { Section } from '../../ui/page';
import { Empty } from '../../ui/state';

export const PERSON_SEGMENTS = graphql(`
  fragment PersonSegments on Person {
    segments {
      id
      name
    }
  }
`);

export function SegmentChips({ person: data }: { person: FragmentOf<typeof PERSON_SEGMENTS> }) {
  const { segments } = readFragment(PERSON_SEGMENTS, data);
  return (
    <Section title="Segments">
      {segments.length === 0 ? (
        <Empty>In no segment now.</Empty>
      ) : (
        <ul className="chips" aria-label="Segments the person is in">
          {segments.map((segment) => (
            <li key={segment.id}>
              <Link className="badge chip" href={`/segments/${encodeURIComponent(segment.id)}`}>
                {segment.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
