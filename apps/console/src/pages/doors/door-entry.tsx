// One connected door: the system it stands for, domain, stars and creation, the last twenty posts it
// answered (never their bodies), its address shown again on demand (owners and admins), and Disconnect
// with a second step (its address answers 404 from then on).
import { useState } from 'react';
import { useClient, useMutation } from 'urql';
import { Refused, refusalOf } from '../../client';
import { FragmentOf, graphql, readFragment, ResultOf } from '../../graphql';
import { ConfirmStep } from '../../ui/confirm-step';
import { ChangeButton, CopyValue } from '../../ui/controls';
import { Alert, Empty } from '../../ui/state';
import { Time } from '../../ui/time';
import { DOOR_SYSTEMS, doorName } from '../../ui/words';

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

const ADDRESS = graphql(`
  query DoorAddress($id: ID!) {
    doorAddress(id: $id)
  }
`);

const DISCONNECT = graphql(`
  mutation DisconnectDoor($id: ID!) {
    disconnectDoor(id: $id)
  }
`);

type Door = ResultOf<typeof DOOR_ENTRY>;

/** What the door answered, in words: recorded, ignored (nothing Lifeline records), or the refusal's code. */
function answerWords(answer: string): string {
  if (answer === 'recorded') return 'Recorded';
  if (answer === 'ignored') return 'Ignored: nothing to record';
  return `Refused (${answer})`;
}

/** Show address: asked for when wanted, never with the list. */
function ShowAddress({ id, kind }: { id: string; kind: string }) {
  const client = useClient();
  const [address, setAddress] = useState<string | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const show = async () => {
    const answer = await client.query(ADDRESS, { id }, { requestPolicy: 'network-only' }).toPromise();
    setRefused(refusalOf(answer.error));
    setAddress(answer.data?.doorAddress ?? null);
  };
  if (address)
    return (
      <CopyValue
        label={`Address of the ${doorName(kind)} door`}
        value={address}
        note={`paste it into ${doorName(kind)}'s webhook settings.`}
      />
    );
  return (
    <div>
      <ChangeButton type="button" className="secondary" onClick={() => void show()}>
        Show address
      </ChangeButton>
      <Alert refused={refused} />
    </div>
  );
}

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
            <td>{answerWords(receipt.answer)}</td>
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
      <h3>{doorName(door.kind)}</h3>
      <dl className="facts">
        <dt>Posts</dt>
        <dd>{DOOR_SYSTEMS[door.kind]?.what ?? door.kind}</dd>
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
      <ShowAddress id={door.id} kind={door.kind} />
      <Receipts door={door} />
      <Disconnect id={door.id} onDisconnected={onChanged} />
    </li>
  );
}
