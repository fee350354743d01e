// Connecting a third-party door (docs/graphql.md#third-party-doors): Stripe, Clerk and GitHub take the signing
// secret their provider shows, Kinde takes the business's domain, GitHub may post stars. The door's
// address is answered here, and shown again on the door's entry when asked.
import { FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { graphql } from '../../graphql';
import { ChangeButton, CopyValue, Field, Select } from '../../ui/controls';
import { Alert } from '../../ui/state';
import { DOOR_SYSTEMS, doorName } from '../../ui/words';
import { useChangeRight } from '../../viewer';

/** The four kinds a workspace connects (the email door is the deployment's own). */
const KINDS = ['payment', 'auth_a', 'auth_b', 'hosting'];

const SECRET_HINTS: Record<string, string> = {
  payment: "The endpoint's signing secret from the payment processor's dashboard; it starts with whsec_.",
  auth_a: "The endpoint's signing secret from the auth provider's dashboard; it starts with whsec_.",
  hosting: "The secret you type in the hosting provider's webhook dialog (it is shown there once).",
};

const CONNECT = graphql(`
  mutation ConnectDoor($input: ConnectDoorInput!) {
    connectDoor(input: $input) {
      address
      door {
        id
        kind
      }
    }
  }
`);

interface DoorFields {
  kind: string;
  secret: string;
  domain: string;
  stars: boolean;
}

const EMPTY: DoorFields = { kind: 'payment', secret: '', domain: '', stars: false };

/** Only what the kind takes: a secret, or (auth_b) a domain; stars for hosting. */
const inputOf = (f: DoorFields) =>
  f.kind === 'auth_b'
    ? { kind: f.kind, domain: f.domain.trim() }
    : { kind: f.kind, secret: f.secret.trim(), ...(f.kind === 'hosting' ? { stars: f.stars } : {}) };

function KindFields({
  fields,
  onChange,
  disabled,
}: {
  fields: DoorFields;
  onChange: (fields: DoorFields) => void;
  disabled: boolean;
}) {
  if (fields.kind === 'auth_b') {
    return (
      <Field
        label="Domain"
        required
        disabled={disabled}
        hint="The business's Kinde host name, like acme.kinde.com, without https://."
        value={fields.domain}
        onChange={(e) => onChange({ ...fields, domain: e.target.value })}
      />
    );
  }
  return (
    <>
      <Field
        label="Signing secret"
        type="password"
        autoComplete="off"
        required
        disabled={disabled}
        hint={SECRET_HINTS[fields.kind]}
        value={fields.secret}
        onChange={(e) => onChange({ ...fields, secret: e.target.value })}
      />
      {fields.kind === 'hosting' ? (
        <div className="field">
          <label>
            <input
              type="checkbox"
              checked={fields.stars}
              disabled={disabled}
              onChange={(e) => onChange({ ...fields, stars: e.target.checked })}
            />{' '}
            Post stars as github_star events
          </label>
        </div>
      ) : null}
    </>
  );
}

export function ConnectDoor({ onConnected }: { onConnected: () => void }) {
  const right = useChangeRight();
  const [fields, setFields] = useState(EMPTY);
  const [result, connect] = useMutation(CONNECT);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if ((await connect({ input: inputOf(fields) })).data) {
      setFields({ ...EMPTY, kind: fields.kind });
      onConnected();
    }
  };
  const connected = result.data?.connectDoor;
  return (
    <form onSubmit={submit} aria-label="Connect a door">
      <Select
        label="Kind"
        value={fields.kind}
        disabled={!right.allowed}
        onChange={(e) => setFields({ ...EMPTY, kind: e.target.value })}
      >
        {KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {`${doorName(kind)} (${DOOR_SYSTEMS[kind].what})`}
          </option>
        ))}
      </Select>
      <KindFields fields={fields} onChange={setFields} disabled={!right.allowed} />
      <ChangeButton type="submit" disabled={result.fetching}>
        Connect
      </ChangeButton>
      <Alert refused={refusalOf(result.error)} />
      {connected ? (
        <>
          <CopyValue
            label={`Address of the ${doorName(connected.door.kind)} door`}
            value={connected.address}
            note={
              `paste it into ${doorName(connected.door.kind)}'s webhook settings. ` +
              'Show address on the door shows it again.'
            }
          />
        </>
      ) : null}
    </form>
  );
}
