// A person's identities and fields, beside the timeline under the summary (summary.tsx).
import { FragmentOf, graphql, readFragment } from '../../graphql';
import { Section } from '../../ui/page';
import { Empty } from '../../ui/state';
import { KeyValues } from './key-values';

export const PERSON_FACTS = graphql(`
  fragment PersonFacts on Person {
    fields
    identities {
      kind
      value
    }
  }
`);

export function Facts({ person: data }: { person: FragmentOf<typeof PERSON_FACTS> }) {
  const person = readFragment(PERSON_FACTS, data);
  const hasFields = !!person.fields && typeof person.fields === 'object' && Object.keys(person.fields).length > 0;
  return (
    <>
      <Identities identities={person.identities} />
      <Section title="Fields">
        {hasFields ? <KeyValues value={person.fields} /> : <Empty>No fields yet.</Empty>}
      </Section>
    </>
  );
}

function Identities({ identities }: { identities: { kind: string; value: string }[] }) {
  return (
    <Section title="Identities">
      {identities.length === 0 ? (
        <Empty>No identities.</Empty>
      ) : (
        <dl className="key-values identities">
          {identities.map((identity) => (
            <div key={`${identity.kind}:${identity.value}`}>
              <dt>{identity.kind}</dt>
              <dd>
                <code>{identity.value}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Section>
  );
}
