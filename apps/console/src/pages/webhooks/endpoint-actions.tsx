// What an owner or admin does to one address (docs/graphql.md#webhooks): rotate its
// secret (the previous one keeps signing 24 hours), send a test, enable it again, delete it.
import { ReactNode, useCallback, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useLocation } from 'wouter';
import { refusalOf } from '../../client';
import { graphql, readFragment } from '../../graphql';
import { ChangeButton, ShownOnce } from '../../ui/controls';
import { ConfirmStep } from '../../ui/confirm-step';
import { StateBadge } from '../../ui/log-table';
import { Alert, Loading } from '../../ui/state';
import { DELIVERY_ENTRY, LastAnswer, useRefreshWhilePending } from './delivery-log';

const ROTATE = graphql(`
  mutation RotateWebhookSecret($endpointId: ID!) {
    rotateWebhookSecret(endpointId: $endpointId) {
      secret
    }
  }
`);

const SEND_TEST = graphql(`
  mutation SendTestDelivery($endpointId: ID!) {
    sendTestDelivery(endpointId: $endpointId) {
      id
      state
    }
  }
`);

const SENT = graphql(
  `
    query SentTestDelivery($id: ID!) {
      webhookDelivery(id: $id) {
        id
        ...DeliveryEntry
      }
    }
  `,
  [DELIVERY_ENTRY],
);

const ENABLE = graphql(`
  mutation EnableWebhookEndpoint($id: ID!) {
    enableWebhookEndpoint(id: $id) {
      id
      disabledAt
      disabledReason
    }
  }
`);

const DELETE = graphql(`
  mutation DeleteWebhookEndpoint($id: ID!) {
    deleteWebhookEndpoint(id: $id)
  }
`);

/** A control and what it answered: the refusal in an alert, or what the action made. */
function Outcome({ error, children }: { error: Parameters<typeof refusalOf>[0]; children?: ReactNode }) {
  return (
    <>
      <Alert refused={refusalOf(error)} />
      {children}
    </>
  );
}

export function RotateSecret({ endpointId }: { endpointId: string }) {
  const [result, rotate] = useMutation(ROTATE);
  const secret = result.data?.rotateWebhookSecret.secret;
  return (
    <div>
      <p>
        A new signing secret, shown once; the previous secret keeps signing beside it for 24 hours, so receivers can
        switch without missing a delivery.
      </p>
      <ChangeButton
        type="button"
        className="secondary"
        disabled={result.fetching}
        onClick={() => void rotate({ endpointId })}
      >
        Rotate secret
      </ChangeButton>
      <Outcome error={result.error}>{secret ? <ShownOnce label="New signing secret" value={secret} /> : null}</Outcome>
    </div>
  );
}

/** What Send a test made, read again while it is pending: its state and the answer of its last attempt. */
function SentTest({ id }: { id: string }) {
  const [result, reexecute] = useQuery({ query: SENT, variables: { id }, requestPolicy: 'network-only' });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const entry = result.data?.webhookDelivery;
  const delivery = entry ? readFragment(DELIVERY_ENTRY, entry) : null;
  useRefreshWhilePending(delivery ? [delivery.state] : [], refresh);
  if (!delivery) return result.error ? <Alert refused={refusalOf(result.error)} /> : <Loading what="Sending" />;
  const last = delivery.attempts.at(-1);
  return (
    <p className="sent-test" role="status">
      Test delivery <code>{delivery.id}</code>: <StateBadge state={delivery.state} />{' '}
      {last ? (
        <>
          attempt {last.number} answered <LastAnswer delivery={delivery} />
          {last.durationMs != null ? <span className="muted"> in {last.durationMs} ms</span> : null}
        </>
      ) : (
        <span className="muted">waiting for the first attempt…</span>
      )}
    </p>
  );
}

export function SendTest({ endpointId, onSent }: { endpointId: string; onSent: () => void }) {
  const [result, send] = useMutation(SEND_TEST);
  const [sent, setSent] = useState<string | null>(null);
  return (
    <div className="send-test">
      <ChangeButton
        type="button"
        disabled={result.fetching}
        onClick={async () => {
          const answer = await send({ endpointId });
          if (answer.data) {
            setSent(answer.data.sendTestDelivery.id);
            onSent();
          }
        }}
      >
        Send a test
      </ChangeButton>{' '}
      <span className="muted">Posts a real body of type test (data {'{}'}); its answer shows here and in the log.</span>
      <Outcome error={result.error}>{sent ? <SentTest key={sent} id={sent} /> : null}</Outcome>
    </div>
  );
}

export function EnableAgain({ id, onEnabled }: { id: string; onEnabled: () => void }) {
  const [result, enable] = useMutation(ENABLE);
  return (
    <div>
      <ChangeButton
        type="button"
        disabled={result.fetching}
        onClick={async () => {
          if ((await enable({ id })).data) onEnabled();
        }}
      >
        Enable again
      </ChangeButton>
      <p className="muted">What failed while it was disabled stays failed until you recover it (below).</p>
      <Outcome error={result.error} />
    </div>
  );
}

/** Delete, with a second step: "Delete for good" appears, and only that deletes. */
export function DeleteEndpoint({ id }: { id: string }) {
  const [result, remove] = useMutation(DELETE);
  const [, navigate] = useLocation();
  const deleteForGood = async () => {
    if ((await remove({ id }, { additionalTypenames: ['WebhookEndpoint'] })).data?.deleteWebhookEndpoint)
      navigate('/webhooks');
  };
  return (
    <div>
      <p>Deletes the address and its delivery log.</p>
      <ConfirmStep
        action="Delete"
        question="Delete this address and its delivery log?"
        confirmLabel="Delete for good"
        keepLabel="Keep it"
        className="danger"
        disabled={result.fetching}
        onConfirm={() => void deleteForGood()}
      />
      <Outcome error={result.error} />
    </div>
  );
}
