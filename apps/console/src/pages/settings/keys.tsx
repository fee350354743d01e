// Secret keys (docs/graphql.md#the-workspace-members-and-keys): each belongs to a member and is shown once, when it is
// made; after that only its hint (sk_live_…abcd) and its last use. Owners and admins see, make and revoke them.
import { FormEvent, useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../../client';
import { graphql, ResultOf } from '../../graphql';
import { Field, ShownOnce } from '../../ui/controls';
import { Section } from '../../ui/page';
import { Alert, Empty, Loaded } from '../../ui/state';
import { Time } from '../../ui/time';
import { useViewer } from '../../viewer';
import { ConfirmStep } from '../../ui/confirm-step';
import { ReadOnly, useReadOnly } from './read-only';

export const KEYS = graphql(`
  query Keys {
    keys {
      id
      hint
      memberEmail
      createdAt
      lastUsedAt
      revokedAt
    }
  }
`);

const CREATE_KEY = graphql(`
  mutation CreateKey($member: String!) {
    createKey(member: $member) {
      keyId
      memberEmail
      secretKey
    }
  }
`);

const REVOKE_KEY = graphql(`
  mutation RevokeKey($id: ID!) {
    revokeKey(id: $id)
  }
`);

type Key = ResultOf<typeof KEYS>['keys'][number];
type Created = ResultOf<typeof CREATE_KEY>['createKey'];

function KeyRows({ keys, readOnly, onRevoke }: { keys: Key[]; readOnly: ReadOnly; onRevoke: (id: string) => void }) {
  if (keys.length === 0) return <Empty>No secret keys yet.</Empty>;
  return (
    <table>
      <caption className="muted">Secret keys, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Member</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Revoked</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id}>
            <td>
              <code>sk_live_…{key.hint}</code>
            </td>
            <td>{key.memberEmail}</td>
            <td>
              <Time value={key.createdAt} />
            </td>
            <td>
              <Time value={key.lastUsedAt} />
            </td>
            <td>{key.revokedAt ? <Time value={key.revokedAt} /> : <span className="badge good">active</span>}</td>
            <td>
              {key.revokedAt ? null : (
                <ConfirmStep
                  action="Revoke"
                  question={`Revoke sk_live_…${key.hint}? It is refused from the next request on.`}
                  disabled={!readOnly.allowed}
                  describedBy={readOnly.reasonId}
                  onConfirm={() => onRevoke(key.id)}
                />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateKey({ readOnly, onCreated }: { readOnly: ReadOnly; onCreated: (created: Created) => void }) {
  const viewer = useViewer();
  const [member, setMember] = useState(viewer.email ?? '');
  const [state, create] = useMutation(CREATE_KEY);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ member: member.trim() });
    if (result.data) onCreated(result.data.createKey);
  };
  return (
    <form onSubmit={submit} aria-label="Create a key">
      <fieldset className="plain form-row" disabled={!readOnly.allowed}>
        <Field
          label="Key for member"
          type="email"
          required
          value={member}
          onChange={(e) => setMember(e.target.value)}
          hint="A new email is added as a member."
        />
        <button type="submit" disabled={state.fetching} aria-describedby={readOnly.reasonId}>
          Create key
        </button>
      </fieldset>
      <Alert refused={refusalOf(state.error)} />
    </form>
  );
}

export function KeysSection() {
  const readOnly = useReadOnly();
  // Members may not read the keys (the service refuses them): their list is not asked for.
  const [result, reexecute] = useQuery({
    query: KEYS,
    pause: !readOnly.allowed,
    context: useMemo(() => ({ additionalTypenames: ['CreatedKey'] }), []),
  });
  const [created, setCreated] = useState<Created | null>(null);
  const [revoking, revoke] = useMutation(REVOKE_KEY);
  const onRevoke = async (id: string) => {
    const answer = await revoke({ id });
    if (!answer.error) reexecute({ requestPolicy: 'network-only' });
  };
  return (
    <Section title="Keys">
      {readOnly.note}
      <CreateKey readOnly={readOnly} onCreated={setCreated} />
      {created ? <ShownOnce label={`Secret key for ${created.memberEmail}`} value={created.secretKey} /> : null}
      <Alert refused={refusalOf(revoking.error)} />
      {readOnly.allowed ? (
        <Loaded result={result} what="Loading the keys">
          {(data) => <KeyRows keys={data.keys} readOnly={readOnly} onRevoke={onRevoke} />}
        </Loaded>
      ) : (
        <Empty>Only owners and admins see the workspace's keys.</Empty>
      )}
    </Section>
  );
}
