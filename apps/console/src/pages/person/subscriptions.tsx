// A person's subscriptions with the consent words exactly as posted, the IP and the time, and beside
// them the withdrawal: when, how and from where (proof of consent and of its withdrawal,
// docs/rest.md#coming-off-a-list). Unsubscribe takes the person off one list (withdrawnVia console).
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { FragmentOf, graphql, readFragment, ResultOf } from '../../graphql';
import { ChangeButton } from '../../ui/controls';
import { Section } from '../../ui/page';
import { Alert, Empty } from '../../ui/state';
import { Time } from '../../ui/time';

export const PERSON_SUBSCRIPTIONS = graphql(`
  fragment PersonSubscriptions on Person {
    id
    subscriptions {
      status
      consentText
      consentIp
      grantedAt
      sourceLabel
      withdrawnAt
      withdrawnVia
      withdrawnIp
      list {
        id
        name
        address
      }
    }
  }
`);

const UNSUBSCRIBE = graphql(`
  mutation Unsubscribe($person: String!, $list: ID!) {
    unsubscribe(person: $person, list: $list) {
      status
      lists {
        id
        subscriberCount
      }
    }
  }
`);

/** How a withdrawal happened, in the console's words. */
const VIA: Record<string, string> = {
  api: 'by the API',
  one_click: 'by the one-click link',
  preferences: 'on the preference page',
  complaint: 'by a spam complaint',
  console: 'in the console',
  bounce: 'by a bounce',
};

type Subscription = ResultOf<typeof PERSON_SUBSCRIPTIONS>['subscriptions'][number];

function Withdrawal({ s }: { s: Subscription }) {
  if (!s.withdrawnAt) return <span className="muted">none</span>;
  return (
    <span className="withdrawal">
      <Time value={s.withdrawnAt} /> {s.withdrawnVia ? VIA[s.withdrawnVia] : null}
      {s.withdrawnIp ? (
        <>
          {' '}
          from <code>{s.withdrawnIp}</code>
        </>
      ) : null}
    </span>
  );
}

export function Subscriptions({ person }: { person: FragmentOf<typeof PERSON_SUBSCRIPTIONS> }) {
  const { id, subscriptions } = readFragment(PERSON_SUBSCRIPTIONS, person);
  const [result, unsubscribe] = useMutation(UNSUBSCRIBE);
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
              <th scope="col">Withdrawn</th>
              <th scope="col">Actions</th>
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
                <td>
                  <Withdrawal s={s} />
                </td>
                <td>
                  {s.status === 'unsubscribed' ? null : (
                    <ChangeButton
                      type="button"
                      className="secondary"
                      aria-label={`Unsubscribe from ${s.list.name}`}
                      disabled={result.fetching}
                      onClick={() => void unsubscribe({ person: id, list: s.list.id })}
                    >
                      Unsubscribe
                    </ChangeButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Alert refused={refusalOf(result.error)} />
    </Section>
  );
}
