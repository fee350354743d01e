// A person's subscriptions with the consent words exactly as posted, the IP and the time (the proof
// of consent a team shows when asked).
import { FragmentOf, graphql, readFragment } from '../../graphql';
import { Section } from '../../ui/page';
import { Empty } from '../../ui/state';
import { Time } from '../../ui/time';

export const PERSON_SUBSCRIPTIONS = graphql(`
  fragment PersonSubscriptions on Person {
    subscriptions {
      status
      consentText
      consentIp
      grantedAt
      sourceLabel
      list {
        id
        name
        address
      }
    }
  }
`);

export function Subscriptions({ person }: { person: FragmentOf<typeof PERSON_SUBSCRIPTIONS> }) {
  const { subscriptions } = readFragment(PERSON_SUBSCRIPTIONS, person);
  return (
    <Section title="Subscriptions">
      {subscriptions.length === 0 ? (
        <Empty>Not subscribed to any list.</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">List</th>
              <th scope="col">Status</th>
              <th scope="col">Consent words</th>
              <th scope="col">IP</th>
              <th scope="col">Granted</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {subscriptions.map((s) => (
              <tr key={s.list.id}>
                <td>
                  {s.list.name} <span className="muted">({s.list.address})</span>
                </td>
                <td>{s.status}</td>
                <td>
                  <q className="consent">{s.consentText}</q>
                </td>
                <td>{s.consentIp ? <code>{s.consentIp}</code> : <span className="muted">not recorded</span>}</td>
                <td>
                  <Time value={s.grantedAt} />
                </td>
                <td>{s.sourceLabel ?? <span className="muted">none</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
