// One webhook address (/webhooks/:id): its facts and health, send a test (with what it answered), its
// delivery log as a table with a state filter and Retry, then edit, rotate the secret, recover and replay,
// and delete, each folded until opened so the log stays near the top (docs/console.md#logs). The schema has
// no query for one address, so the page reads the workspace's list (one request) and picks this one.
import { ReactNode, useCallback, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { graphql, readFragment, ResultOf } from '../graphql';
import { Page, Section } from '../ui/page';
import { Empty, Loaded } from '../ui/state';
import { Time } from '../ui/time';
import './webhooks/webhooks.css';
import { StateFilter } from '../ui/log-table';
import {
  DELIVERY_ENTRY,
  DELIVERY_STATES,
  DeliveryLog,
  deliveryStates,
  useRefreshWhilePending,
} from './webhooks/delivery-log';
import { DeleteEndpoint, EnableAgain, RotateSecret, SendTest } from './webhooks/endpoint-actions';
import { EditEndpoint } from './webhooks/endpoint-form';
import { ENDPOINT_HEALTH, EndpointState, SuccessRate } from './webhooks/health';
import { Recover, Replay } from './webhooks/recover-replay';

const ENDPOINT = graphql(
  `
    query WebhookEndpoint($state: String) {
      webhookEndpoints {
        id
        url
        triggers
        rateLimitPerSecond
        createdAt
        ...EndpointHealth
        deliveries(state: $state) {
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
    <dl className="facts endpoint-facts">
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

/** A part of the page folded until opened (its title is the disclosure's summary). */
function Folded({ title, children }: { title: string; children: ReactNode }) {
  return (
    <details className="folded">
      <summary>{title}</summary>
      {children}
    </details>
  );
}

interface Filter {
  state: string;
  setState: (state: string) => void;
}

function Log({ endpoint, filter, refresh }: { endpoint: Endpoint; filter: Filter; refresh: () => void }) {
  const count = endpoint.deliveries.length;
  const shown = `${count} ${count === 1 ? 'delivery' : 'deliveries'}${filter.state ? ` ${filter.state}` : ''}`;
  return (
    <Section
      title="Delivery log"
      actions={
        <StateFilter
          label="State"
          states={DELIVERY_STATES}
          value={filter.state}
          shown={`${shown}, the latest 20 at most`}
          onChange={filter.setState}
        />
      }
    >
      {count === 0 ? (
        <Empty>
          {filter.state ? `No ${filter.state} deliveries.` : 'No deliveries yet: Send a test to see one here.'}
        </Empty>
      ) : (
        <DeliveryLog entries={endpoint.deliveries} onChanged={refresh} />
      )}
    </Section>
  );
}

function Address({ endpoint, filter, refresh }: { endpoint: Endpoint; filter: Filter; refresh: () => void }) {
  const disabled = readFragment(ENDPOINT_HEALTH, endpoint).disabledAt != null;
  return (
    <Page title={endpoint.url}>
      <p>
        <Link href="/webhooks">All webhook addresses</Link>
      </p>
      <Facts endpoint={endpoint} />
      {disabled ? <EnableAgain id={endpoint.id} onEnabled={refresh} /> : null}
      <SendTest endpointId={endpoint.id} onSent={refresh} />
      <Log endpoint={endpoint} filter={filter} refresh={refresh} />
      <Section title="Manage">
        <Folded title="Edit">
          <EditEndpoint key={endpoint.id} endpoint={endpoint} />
        </Folded>
        <Folded title="Signing secret">
          <RotateSecret endpointId={endpoint.id} />
        </Folded>
        <Folded title="Recover and replay">
          <Recover endpointId={endpoint.id} onQueued={refresh} />
          <Replay endpointId={endpoint.id} onQueued={refresh} />
        </Folded>
        <Folded title="Delete">
          <DeleteEndpoint id={endpoint.id} />
        </Folded>
      </Section>
    </Page>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const [state, setState] = useState('');
  const [result, reexecute] = useQuery({
    query: ENDPOINT,
    variables: { state: state || null },
    requestPolicy: 'cache-and-network',
  });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  // While another state's log loads, the page keeps showing the last one (the filter keeps its focus).
  const last = useRef<Endpoint | undefined>(undefined);
  const found = result.data?.webhookEndpoints.find((e) => e.id === id);
  if (found || !result.fetching) last.current = found;
  const endpoint = last.current;
  useRefreshWhilePending(deliveryStates(endpoint?.deliveries), refresh);
  if (endpoint) return <Address endpoint={endpoint} filter={{ state, setState }} refresh={refresh} />;
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
