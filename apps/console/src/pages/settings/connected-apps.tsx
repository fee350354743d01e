// Apps signed in at the tool door: owners and admins see and revoke every connection of
// the workspace; a member sees and revokes their own.
import { useState } from 'react';
import { CombinedError, useMutation, useQuery } from 'urql';
import { refusalOf } from '../../client';
import { graphql, ResultOf } from '../../graphql';
import { Section } from '../../ui/page';
import { Alert, Empty, Loaded } from '../../ui/state';
import { Time } from '../../ui/time';
import { useChangeRight, useViewer } from '../../viewer';
import { ConfirmStep } from '../../ui/confirm-step';

const CONNECTED_APPS = graphql(`
  query ConnectedApps {
    connectedApps {
      id
      name
      member
      createdAt
      lastUsedAt
    }
  }
`);

const REVOKE_CONNECTED_APP = graphql(`
  mutation RevokeConnectedApp($id: ID!) {
    revokeConnectedApp(id: $id)
  }
`);

type ConnectedApp = ResultOf<typeof CONNECTED_APPS>['connectedApps'][number];

function AppRows({
  apps,
  mayRevoke,
  onRevoke,
}: {
  apps: ConnectedApp[];
  mayRevoke: (app: ConnectedApp) => boolean;
  onRevoke: (id: string) => void;
}) {
  if (apps.length === 0) return <Empty>No app has signed in at the tool door.</Empty>;
  return (
    <table>
      <caption className="muted">Connected apps, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Member</th>
          <th scope="col">Connected</th>
          <th scope="col">Last used</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {apps.map((app) => (
          <tr key={app.id}>
            <td>{app.name}</td>
            <td>{app.member}</td>
            <td>
              <Time value={app.createdAt} />
            </td>
            <td>
              <Time value={app.lastUsedAt} />
            </td>
            <td>
              <ConfirmStep
                action="Revoke"
                question={`Disconnect ${app.name}? Its tokens are refused from the next call on.`}
                disabled={!mayRevoke(app)}
                onConfirm={() => onRevoke(app.id)}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ConnectedAppsSection() {
  const viewer = useViewer();
  const right = useChangeRight();
  const [result, reexecute] = useQuery({ query: CONNECTED_APPS });
  const [, revoke] = useMutation(REVOKE_CONNECTED_APP);
  const [refusal, setRefusal] = useState<CombinedError | undefined>();
  const mayRevoke = (app: ConnectedApp) => right.allowed || app.member === viewer.email;
  const onRevoke = async (id: string) => {
    const answer = await revoke({ id });
    setRefusal(answer.error);
    if (!answer.error) reexecute({ requestPolicy: 'network-only' });
  };
  return (
    <Section title="Connected apps">
      {right.allowed ? null : <p className="hint">You see the apps connected as you, and may revoke them.</p>}
      <Alert refused={refusalOf(refusal)} />
      <Loaded result={result} what="Loading the connected apps">
        {(data) => <AppRows apps={data.connectedApps} mayRevoke={mayRevoke} onRevoke={onRevoke} />}
      </Loaded>
    </Section>
  );
}
