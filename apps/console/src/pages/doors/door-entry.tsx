// One connected door: its kind, domain, stars and creation, the last twenty posts it answered (never
// their bodies), and Disconnect with a second step (its address answers 404 from then on).
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { FragmentOf, graphql, readFragment, ResultOf } from '../../graphql';
import { ConfirmStep } from '../../ui/confirm-step';
import { Alert, Empty } from '../../ui/state';
import { Time } from '../../ui/time';
import { DOOR_KINDS } from './connect-door';

export const DOOR_ENTRY = graphql(`
  fragment DoorEntry on Door {
    id
    kind
    domain
    stars
    createdAt
    receipts {
      at
      type
      answer
      httpStatus
      eventId
    }
  }
`);

const DISCONNECT = graphql(`
  mutation DisconnectDoor($id: ID!) {
    disconnectDoor(id: $id)
  }
`);

type Door = ResultOf<typeof DOOR_ENTRY>;

function Receipts({ door }: { door: Door }) {
  if (door.receipts.length === 0) return <Empty>No posts answered yet.</Empty>;
  return (
    <table>
      <caption className="muted">The last twenty posts this door answered, newest first</caption>
      <thead>
        <tr>
          <th scope="col">At</th>
          <th scope="col">Type</th>
          <th scope="col">Answer</th>
          <th scope="col" className="number">
            HTTP status
          </th>
          <th scope="col">Event id</th>
        </tr>
      </thead>
      <tbody>
        {door.receipts.map((receipt) => (
          <tr key={`${receipt.eventId}-${receipt.at}`}>
            <td>
              <Time value={receipt.at} />
            </td>
            <td className="type">{receipt.type ?? ''}</td>
            <td>{receipt.answer}</td>
            <td className="number">{receipt.httpStatus}</td>
            <td>
              <code>{receipt.eventId}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Disconnect({ id, onDisconnected }: { id: string; onDisconnected: () => void }) {
  const [result, disconnect] = useMutation(DISCONNECT);
  const disconnectForGood = async () => {
    if ((await disconnect({ id }, { additionalTypenames: ['Door'] })).data?.disconnectDoor) onDisconnected();
  };
  return (
    <div>
      <ConfirmStep
        action="Disconnect"
        question="Disconnect this door? Its address stops answering."
        confirmLabel="Disconnect for good"
        keepLabel="Keep it"
        className="danger"
        disabled={result.fetching}
        onConfirm={() => void disconnectForGood()}
      />
      <Alert refused={refusalOf(result.error)} />
    </div>
  );
}

export function DoorEntry({ entry, onChanged }: { entry: FragmentOf<typeof DOOR_ENTRY>; onChanged: () => void }) {
  const door = readFragment(DOOR_ENTRY, entry);
  return (
    <li className="door">
      <h3>{DOOR_KINDS[door.kind] ?? door.kind}</h3>
      <dl className="facts">
        <dt>Kind</dt>
        <dd className="type">{door.kind}</dd>
        <dt>Domain</dt>
        <dd>{door.domain ?? <span className="muted">none</span>}</dd>
        <dt>Stars</dt>
        <dd>
          {door.kind === 'hosting' ? (
            door.stars ? (
              'posted as github_star'
            ) : (
              'not posted'
            )
          ) : (
            <span className="muted">not for this kind</span>
          )}
        </dd>
        <dt>Created</dt>
        <dd>
          <Time value={door.createdAt} />
        </dd>
      </dl>
      <Receipts door={door} />
      <Disconnect id={door.id} onDisconnected={onChanged} />
    </li>
  );
}
