// Members of the workspace: owner, admin or member (docs/graphql.md#roles). Owners and admins add, change
// and remove; only an owner makes owners; the last owner stays. A removed member's keys are revoked.
import { FormEvent, useMemo, useState } from 'react';
import { CombinedError, useClient, useMutation, useQuery } from 'urql';
import { refusalOf } from '../../client';
import { graphql, ResultOf } from '../../graphql';
import { Field, Select } from '../../ui/controls';
import { Section } from '../../ui/page';
import { Alert, Empty, Loaded } from '../../ui/state';
import { Time } from '../../ui/time';
import { ConfirmStep } from '../../ui/confirm-step';
import { KEYS } from './keys';
import { ReadOnly, useReadOnly } from './read-only';

const MEMBERS = graphql(`
  query Members {
    members {
      id
      email
      role
      createdAt
    }
  }
`);

const ADD_MEMBER = graphql(`
  mutation AddMember($email: String!, $role: String!) {
    addMember(email: $email, role: $role) {
      id
      email
      role
      createdAt
    }
  }
`);

const CHANGE_ROLE = graphql(`
  mutation ChangeRole($member: String!, $role: String!) {
    changeRole(member: $member, role: $role) {
      id
      email
      role
      createdAt
    }
  }
`);

const REMOVE_MEMBER = graphql(`
  mutation RemoveMember($member: String!) {
    removeMember(member: $member)
  }
`);

const ROLES = ['member', 'admin', 'owner'] as const;

type Member = ResultOf<typeof MEMBERS>['members'][number];

function RoleChoice({
  member,
  readOnly,
  onChange,
}: {
  member: Member;
  readOnly: ReadOnly;
  onChange: (role: string) => void;
}) {
  const [role, setRole] = useState(member.role);
  return (
    <>
      <select
        aria-label={`Role of ${member.email}`}
        value={role}
        disabled={!readOnly.allowed}
        aria-describedby={readOnly.reasonId}
        onChange={(e) => setRole(e.target.value)}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="secondary"
        disabled={!readOnly.allowed || role === member.role}
        aria-describedby={readOnly.reasonId}
        onClick={() => onChange(role)}
      >
        Change role
      </button>
    </>
  );
}

function MemberRows({
  members,
  readOnly,
  onChangeRole,
  onRemove,
}: {
  members: Member[];
  readOnly: ReadOnly;
  onChangeRole: (email: string, role: string) => void;
  onRemove: (email: string) => void;
}) {
  if (members.length === 0) return <Empty>No members.</Empty>;
  return (
    <table>
      <caption className="muted">Members, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          <th scope="col">Added</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {members.map((member) => (
          <tr key={`${member.id}:${member.role}`}>
            <td>{member.email}</td>
            <td>{member.role}</td>
            <td>
              <Time value={member.createdAt} />
            </td>
            <td>
              <div className="row-actions">
                <RoleChoice member={member} readOnly={readOnly} onChange={(role) => onChangeRole(member.email, role)} />
                <ConfirmStep
                  action="Remove"
                  question={`Remove ${member.email}? Their keys stop working.`}
                  disabled={!readOnly.allowed}
                  describedBy={readOnly.reasonId}
                  onConfirm={() => onRemove(member.email)}
                />
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function AddMember({ readOnly, onAdded }: { readOnly: ReadOnly; onAdded: (error: CombinedError | undefined) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [state, add] = useMutation(ADD_MEMBER);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await add({ email: email.trim(), role });
    if (!result.error) setEmail('');
    onAdded(result.error);
  };
  return (
    <form onSubmit={submit} aria-label="Add a member">
      <fieldset className="plain form-row" disabled={!readOnly.allowed}>
        <Field label="Member email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Select label="Role" value={role} onChange={(e) => setRole(e.target.value)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </Select>
        <button type="submit" disabled={state.fetching} aria-describedby={readOnly.reasonId}>
          Add member
        </button>
      </fieldset>
    </form>
  );
}

export function MembersSection() {
  const readOnly = useReadOnly();
  const client = useClient();
  const [result, reexecute] = useQuery({
    query: MEMBERS,
    context: useMemo(() => ({ additionalTypenames: ['CreatedKey'] }), []),
  });
  const [refusal, setRefusal] = useState<CombinedError | undefined>();
  const [, changeRole] = useMutation(CHANGE_ROLE);
  const [, remove] = useMutation(REMOVE_MEMBER);
  const onChangeRole = async (member: string, role: string) => setRefusal((await changeRole({ member, role })).error);
  const onRemove = async (member: string) => {
    const answer = await remove({ member });
    setRefusal(answer.error);
    if (answer.error) return;
    reexecute({ requestPolicy: 'network-only' });
    // The member's keys were revoked with them: the keys list is read again too.
    void client.query(KEYS, {}, { requestPolicy: 'network-only' }).toPromise();
  };
  return (
    <Section title="Members">
      {readOnly.note}
      <Alert refused={refusalOf(refusal)} />
      <Loaded result={result} what="Loading the members">
        {(data) => (
          <MemberRows members={data.members} readOnly={readOnly} onChangeRole={onChangeRole} onRemove={onRemove} />
        )}
      </Loaded>
      <h3>Add a member</h3>
      <AddMember readOnly={readOnly} onAdded={setRefusal} />
    </Section>
  );
}
