// The fields of a webhook address (docs/webhooks.md#addresses, docs/webhooks.md#triggers-and-bodies):
// its public https URL, the triggers it hears, and an optional rate limit; used to create and to edit.
import { FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { Link } from 'wouter';
import { refusalOf } from '../../client';
import { graphql } from '../../graphql';
import { ChangeButton, Field, ShownOnce } from '../../ui/controls';
import { Alert } from '../../ui/state';
import { useChangeRight } from '../../viewer';

/** The triggers the service fires, in the spec's words, with when each fires. */
const TRIGGERS: [string, string][] = [
  ['stage_entered', 'somebody moved to a lifecycle or pipeline stage'],
  ['subscribed', 'somebody joined a list'],
  ['unsubscribed', 'somebody came off a list'],
  ['event', 'any event landed'],
  ['email_in', 'somebody wrote back'],
  ['field_changed', 'a field on a record changed'],
  ['person_erased', 'somebody was erased: erase your copies'],
  ['segment_entered', 'somebody entered a segment'],
  ['segment_left', 'somebody left a segment'],
];

export interface EndpointFields {
  url: string;
  triggers: string[];
  /** Posts per second as typed; empty: no limit. */
  rateLimit: string;
}

const rateLimitOf = (fields: EndpointFields): number | null =>
  fields.rateLimit.trim() === '' ? null : Number(fields.rateLimit);

function TriggersFieldset({
  chosen,
  disabled,
  onChange,
}: {
  chosen: string[];
  disabled: boolean;
  onChange: (triggers: string[]) => void;
}) {
  const toggle = (name: string, on: boolean) =>
    onChange(
      on ? TRIGGERS.map(([n]) => n).filter((n) => n === name || chosen.includes(n)) : chosen.filter((n) => n !== name),
    );
  return (
    <fieldset className="triggers">
      <legend>Triggers</legend>
      {TRIGGERS.map(([name, when]) => (
        <label key={name}>
          <input
            type="checkbox"
            checked={chosen.includes(name)}
            disabled={disabled}
            onChange={(e) => toggle(name, e.target.checked)}
          />{' '}
          <span className="type">{name}</span> <span className="muted">({when})</span>
        </label>
      ))}
    </fieldset>
  );
}

/** URL, triggers and rate limit, controlled by the form that holds them. */
function EndpointFieldset({
  fields,
  onChange,
}: {
  fields: EndpointFields;
  onChange: (fields: EndpointFields) => void;
}) {
  const right = useChangeRight();
  return (
    <>
      <Field
        label="URL"
        type="text"
        inputMode="url"
        required
        placeholder="https://example.com/hooks/lifeline"
        hint="A public https address; checked when saved."
        value={fields.url}
        disabled={!right.allowed}
        onChange={(e) => onChange({ ...fields, url: e.target.value })}
      />
      <TriggersFieldset
        chosen={fields.triggers}
        disabled={!right.allowed}
        onChange={(triggers) => onChange({ ...fields, triggers })}
      />
      <Field
        label="Rate limit (posts per second)"
        type="number"
        min={1}
        max={10000}
        hint="1 to 10,000; leave empty for no limit."
        value={fields.rateLimit}
        disabled={!right.allowed}
        onChange={(e) => onChange({ ...fields, rateLimit: e.target.value })}
      />
    </>
  );
}

const CREATE = graphql(`
  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      endpoint {
        id
        url
      }
      secret
    }
  }
`);

const EMPTY: EndpointFields = { url: '', triggers: ['event'], rateLimit: '' };

/** Create: the signing secret is shown once, here. */
export function CreateEndpoint({ onCreated }: { onCreated: () => void }) {
  const [fields, setFields] = useState(EMPTY);
  const [result, create] = useMutation(CREATE);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const answer = await create({
      input: { url: fields.url.trim(), triggers: fields.triggers, rateLimitPerSecond: rateLimitOf(fields) },
    });
    if (answer.data) {
      setFields(EMPTY);
      onCreated();
    }
  };
  const created = result.data?.createWebhookEndpoint;
  return (
    <form onSubmit={submit} aria-label="Create an address">
      <EndpointFieldset fields={fields} onChange={setFields} />
      <ChangeButton type="submit" disabled={result.fetching}>
        Create
      </ChangeButton>
      <Alert refused={refusalOf(result.error)} />
      {created ? (
        <>
          <ShownOnce label="Signing secret" value={created.secret} />
          <p>
            Created <Link href={`/webhooks/${created.endpoint.id}`}>{created.endpoint.url}</Link>.
          </p>
        </>
      ) : null}
    </form>
  );
}

const UPDATE = graphql(`
  mutation UpdateWebhookEndpoint($id: ID!, $input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(id: $id, input: $input) {
      id
      url
      triggers
      rateLimitPerSecond
    }
  }
`);

/** Edit the URL, triggers and rate limit; an emptied rate limit removes it. */
export function EditEndpoint({
  endpoint,
}: {
  endpoint: { id: string; url: string; triggers: string[]; rateLimitPerSecond: number | null };
}) {
  const [fields, setFields] = useState<EndpointFields>({
    url: endpoint.url,
    triggers: endpoint.triggers,
    rateLimit: endpoint.rateLimitPerSecond?.toString() ?? '',
  });
  const [result, update] = useMutation(UPDATE);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void update({
      id: endpoint.id,
      input: { url: fields.url.trim(), triggers: fields.triggers, rateLimitPerSecond: rateLimitOf(fields) },
    });
  };
  return (
    <form onSubmit={submit} aria-label="Edit the address">
      <EndpointFieldset fields={fields} onChange={setFields} />
      <ChangeButton type="submit" disabled={result.fetching}>
        Save
      </ChangeButton>
      <Alert refused={refusalOf(result.error)} />
      {result.data && !result.fetching ? (
        <p className="notice" role="status">
          Saved.
        </p>
      ) : null}
    </form>
  );
}
