// One webhook address (/webhooks/:id): its facts and health, edit, rotate the secret, send a test,
// enable again, recover and replay, delete, and its delivery log with Retry. The schema has no query
// for one address, so the page reads the workspace's list (one request) and picks this one.
import { useCallback } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { graphql, readFragment, ResultOf } from '../graphql';
import { Page, Section } from '../ui/page';
import { Empty, Loaded } from '../ui/state';
import { Time } from '../ui/time';
import './webhooks/webhooks.css';
import { DELIVERY_ENTRY, DeliveryLog, useRefreshWhilePending } from './webhooks/delivery-log';
import { DeleteEndpoint, EnableAgain, RotateSecret, SendTest } from './webhooks/endpoint-actions';
import { EditEndpoint } from './webhooks/endpoint-form';
import { ENDPOINT_HEALTH, EndpointState, SuccessRate } from './webhooks/health';
import { Recover, Replay } from './webhooks/recover-replay';

const ENDPOINT = graphql(
  `
    query WebhookEndpoint {
      webhookEndpoints {
        id
        url
        triggers
        rateLimitPerSecond
        createdAt
        ...EndpointHealth
        deliveries {
          ...DeliveryEntry
        }
      }
    }
  `,
  [ENDPOINT_HEALTH, DELIVERY_ENTRY],
);

type Endpoint = ResultOf<typeof ENDPOINT>['webhookEndpoints'][number];

function Facts({ endpoint }: { endpoint: Endpoint }) {
  const health = readFragment(ENDPOINT_HEALTH, endpoint);
  return (
    <dl className="facts">
      <dt>URL</dt>
      <dd>
        <code>{endpoint.url}</code>
      </dd>
      <dt>Triggers</dt>
      <dd>{endpoint.triggers.join(', ')}</dd>
      <dt>Rate limit</dt>
      <dd>{endpoint.rateLimitPerSecond == null ? 'none' : `${endpoint.rateLimitPerSecond} posts per second`}</dd>
      <dt>Success rate</dt>
      <dd>
        <SuccessRate rate={health.successRate} />
      </dd>
      <dt>Last success</dt>
      <dd>
        <Time value={health.lastSuccessAt} />
      </dd>
      <dt>State</dt>
      <dd>
        <EndpointState disabledAt={health.disabledAt} disabledReason={health.disabledReason} />
      </dd>
      <dt>Created</dt>
      <dd>
        <Time value={endpoint.createdAt} />
      </dd>
    </dl>
  );
}

function Address({ endpoint, refresh }: { endpoint: Endpoint; refresh: () => void }) {
  const disabled = readFragment(ENDPOINT_HEALTH, endpoint).disabledAt != null;
  return (
    <Page title={endpoint.url}>
      <p>
        <Link href="/webhooks">All webhook addresses</Link>
      </p>
      <Facts endpoint={endpoint} />
      {disabled ? <EnableAgain id={endpoint.id} onEnabled={refresh} /> : null}
      <Section title="Send a test">
        <SendTest endpointId={endpoint.id} onSent={refresh} />
      </Section>
      <Section title="Delivery log">
        <DeliveryLog entries={endpoint.deliveries} onChanged={refresh} />
      </Section>
      <Section title="Edit">
        <EditEndpoint key={endpoint.id} endpoint={endpoint} />
      </Section>
      <Section title="Signing secret">
        <RotateSecret endpointId={endpoint.id} />
      </Section>
      <Section title="Recover and replay">
        <Recover endpointId={endpoint.id} onQueued={refresh} />
        <Replay endpointId={endpoint.id} onQueued={refresh} />
      </Section>
      <Section title="Delete">
        <DeleteEndpoint id={endpoint.id} />
      </Section>
    </Page>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const [result, reexecute] = useQuery({ query: ENDPOINT, requestPolicy: 'cache-and-network' });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const endpoint = result.data?.webhookEndpoints.find((e) => e.id === id);
  useRefreshWhilePending(endpoint?.deliveries, refresh);
  if (endpoint) return <Address endpoint={endpoint} refresh={refresh} />;
  return (
    <Page title={result.data ? 'No such address' : 'Webhook address'}>
      <Loaded result={result} what="Loading the address">
        {() => (
          <Empty>
            This workspace has no webhook address {id}. <Link href="/webhooks">See all addresses</Link>.
          </Empty>
        )}
      </Loaded>
    </Page>
  );
}
