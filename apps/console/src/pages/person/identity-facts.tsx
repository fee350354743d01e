// A person's facts: stage (in the specification's spelling), identities, fields and first touch.
import { Fragment } from 'react';
import { FragmentOf, graphql, readFragment } from '../../graphql';
import { Section } from '../../ui/page';
import { Empty } from '../../ui/state';
import { Time } from '../../ui/time';
import { stageName } from '../../ui/stage';

export const PERSON_FACTS = graphql(`
  fragment PersonFacts on Person {
    id
    email
    name
    stage
    engaged
    os
    purchases
    createdAt
    fields
    firstTouch
    identities {
      kind
      value
    }
  }
`);

export function Facts({ person: data }: { person: FragmentOf<typeof PERSON_FACTS> }) {
  const person = readFragment(PERSON_FACTS, data);
  return (
    <>
      <dl className="facts">
        <dt>Stage</dt>
        <dd>{stageName(person.stage)}</dd>
        <dt>Engaged</dt>
        <dd>
          {person.engaged ? 'Yes: email may be sent' : 'No: email is refused until they sign up, buy or write in'}
        </dd>
        <dt>Purchases</dt>
        <dd>{person.purchases}</dd>
        <dt>Operating system</dt>
        <dd>{person.os ?? <span className="muted">unknown</span>}</dd>
        <dt>First seen</dt>
        <dd>
          <Time value={person.createdAt} />
        </dd>
        <dt>Record id</dt>
        <dd>
          <code>{person.id}</code>
        </dd>
      </dl>
      <Identities identities={person.identities} />
      <Section title="Fields">
        <JsonFacts value={person.fields} none="No fields yet." />
      </Section>
      <Section title="First touch">
        <JsonFacts value={person.firstTouch} none="No first touch recorded." />
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
        <table>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {identities.map((identity) => (
              <tr key={`${identity.kind}:${identity.value}`}>
                <td>{identity.kind}</td>
                <td>
                  <code>{identity.value}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

/** A JSON object as key and value rows; nested values as compact JSON. */
function JsonFacts({ value, none }: { value: unknown; none: string }) {
  const entries = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
  if (entries.length === 0) return <Empty>{none}</Empty>;
  return (
    <dl className="facts">
      {entries.map(([key, item]) => (
        <Fragment key={key}>
          <dt>{key}</dt>
          <dd>{typeof item === 'string' ? item : JSON.stringify(item)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
