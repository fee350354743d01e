// Webhooks (docs/webhooks.md#outgoing-webhooks): the workspace's addresses with their health, and
// creating one (owners and admins; the signing secret shown once). Each address has its own page.
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { graphql, readFragment, ResultOf } from '../graphql';
import { Page, Section } from '../ui/page';
import { Empty, Loaded } from '../ui/state';
import { Time } from '../ui/time';
import './webhooks/webhooks.css';
import { CreateEndpoint } from './webhooks/endpoint-form';
import { ENDPOINT_HEALTH, EndpointState, SuccessRate } from './webhooks/health';

const ENDPOINTS = graphql(
  `
    query WebhookEndpoints {
      webhookEndpoints {
        id
        url
        triggers
        rateLimitPerSecond
        createdAt
        ...EndpointHealth
      }
    }
  `,
  [ENDPOINT_HEALTH],
);

type Endpoint = ResultOf<typeof ENDPOINTS>['webhookEndpoints'][number];

function EndpointRow({ endpoint }: { endpoint: Endpoint }) {
  const health = readFragment(ENDPOINT_HEALTH, endpoint);
  return (
    <tr>
      <td>
        <Link href={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
      </td>
      <td>{endpoint.triggers.join(', ')}</td>
      <td className="number">
        <SuccessRate rate={health.successRate} />
      </td>
      <td>
        <Time value={health.lastSuccessAt} />
      </td>
      <td>
        <EndpointState disabledAt={health.disabledAt} disabledReason={health.disabledReason} />
      </td>
      <td>
        <Time value={endpoint.createdAt} />
      </td>
    </tr>
  );
}

function EndpointsTable({ endpoints }: { endpoints: Endpoint[] }) {
  if (endpoints.length === 0) return <Empty>No webhook addresses yet: create one below.</Empty>;
  return (
    <table>
      <caption className="muted">Up to ten per workspace, oldest first; health over the last day.</caption>
      <thead>
        <tr>
          <th scope="col">Address</th>
          <th scope="col">Triggers</th>
          <th scope="col" className="number">
            Success rate
          </th>
          <th scope="col">Last success</th>
          <th scope="col">State</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {endpoints.map((endpoint) => (
          <EndpointRow key={endpoint.id} endpoint={endpoint} />
        ))}
      </tbody>
    </table>
  );
}

export function WebhooksPage() {
  const [result, reexecute] = useQuery({ query: ENDPOINTS, requestPolicy: 'cache-and-network' });
  return (
    <Page title="Webhooks">
      <Section title="Addresses">
        <Loaded result={result} what="Loading the addresses">
          {(data) => <EndpointsTable endpoints={data.webhookEndpoints} />}
        </Loaded>
      </Section>
      <Section title="Create an address">
        <CreateEndpoint onCreated={() => reexecute({ requestPolicy: 'network-only' })} />
      </Section>
    </Page>
  );
}
