// A broadcast's moves by its state (docs/graphql.md#broadcasts): a draft or a scheduled one is sent now (asked once
// more on the page) or scheduled; a sending one paused, a paused one resumed; any not over cancelled. A send the
// workspace's postal address is missing for is refused, with a link to where it is set.
import { FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { useMutation } from 'urql';
import { Refused, refusalOf } from '../../client';
import { graphql } from '../../graphql';
import { ConfirmStep } from '../../ui/confirm-step';
import { ChangeButton, Field } from '../../ui/controls';
import { Alert } from '../../ui/state';

const SEND = graphql(`
  mutation SendBroadcast($id: ID!) {
    sendBroadcast(id: $id) {
      id
      state
      audience
      startedAt
      updatedAt
    }
  }
`);

const SCHEDULE = graphql(`
  mutation ScheduleBroadcast($id: ID!, $at: DateTime!) {
    scheduleBroadcast(id: $id, at: $at) {
      id
      state
      scheduledAt
      updatedAt
    }
  }
`);

const PAUSE = graphql(`
  mutation PauseBroadcast($id: ID!) {
    pauseBroadcast(id: $id) {
      id
      state
      updatedAt
    }
  }
`);

const RESUME = graphql(`
  mutation ResumeBroadcast($id: ID!) {
    resumeBroadcast(id: $id) {
      id
      state
      updatedAt
    }
  }
`);

const CANCEL = graphql(`
  mutation CancelBroadcast($id: ID!) {
    cancelBroadcast(id: $id) {
      id
      state
      finishedAt
      updatedAt
    }
  }
`);

export interface Movable {
  id: string;
  name: string;
  state: string;
  scheduledAt?: string | null;
}

/** A refusal; one for want of the postal address (its sentence names postalAddress) says where to set it. */
export function MoveRefusal({ refused }: { refused: Refused | null }) {
  if (!refused || !/\bpostalAddress\b/.test(refused.message)) return <Alert refused={refused} />;
  return (
    <div className="alert" role="alert">
      <p>
        {refused.message} <span className="code">({refused.code})</span>
      </p>
      <p>
        <Link href="/settings#postal-address">Set the postal address in Settings</Link>: it is the footer of every
        broadcast.
      </p>
    </div>
  );
}

/** The value of a datetime-local input for a moment, in the reader's own time zone. */
function localInput(at: Date): string {
  const shifted = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

function Schedule({ broadcast, onRefused }: { broadcast: Movable; onRefused: (r: Refused | null) => void }) {
  const [at, setAt] = useState(() =>
    localInput(broadcast.scheduledAt ? new Date(broadcast.scheduledAt) : new Date(Date.now() + 3_600_000)),
  );
  const [result, schedule] = useMutation(SCHEDULE);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const answer = await schedule({ id: broadcast.id, at: new Date(at).toISOString() });
    onRefused(refusalOf(answer.error));
  };
  return (
    <form className="inline-edit" onSubmit={(e) => void submit(e)} aria-label="Schedule">
      <Field
        label="Send at"
        type="datetime-local"
        required
        value={at}
        hint="Your own time zone; within a year."
        onChange={(e) => setAt(e.target.value)}
      />
      <ChangeButton type="submit" className="secondary" disabled={result.fetching}>
        {broadcast.state === 'scheduled' ? 'Move the time' : 'Schedule'}
      </ChangeButton>
    </form>
  );
}

/** The buttons the broadcast's state allows, and the refusal of the last move made here. */
export function Moves({ broadcast, audienceNow }: { broadcast: Movable; audienceNow: string | null }) {
  const [refused, setRefused] = useState<Refused | null>(null);
  const [, send] = useMutation(SEND);
  const [, pause] = useMutation(PAUSE);
  const [, resume] = useMutation(RESUME);
  const [, cancel] = useMutation(CANCEL);
  const made = (answer: { error?: Parameters<typeof refusalOf>[0] }) => setRefused(refusalOf(answer.error));
  const { id, state } = broadcast;
  const startable = state === 'draft' || state === 'scheduled';
  const to = audienceNow ? ` to ${audienceNow}` : '';
  return (
    <div className="moves">
      <div className="actions">
        {startable ? (
          <ConfirmStep
            action="Send now"
            className=""
            question={`Send ${broadcast.name}${to} now? Each person gets it once; this cannot be undone.`}
            confirmLabel="Yes, send it now"
            keepLabel="Not yet"
            onConfirm={() => void send({ id }).then(made)}
          />
        ) : null}
        {state === 'sending' ? (
          <ChangeButton type="button" className="secondary" onClick={() => void pause({ id }).then(made)}>
            Pause
          </ChangeButton>
        ) : null}
        {state === 'paused' ? (
          <ChangeButton type="button" onClick={() => void resume({ id }).then(made)}>
            Resume
          </ChangeButton>
        ) : null}
        {state !== 'sent' && state !== 'cancelled' ? (
          <ConfirmStep
            action="Cancel broadcast"
            question={`Cancel ${broadcast.name}? Nobody not reached yet gets it, and it cannot be sent again.`}
            confirmLabel="Yes, cancel it"
            keepLabel="Keep it"
            onConfirm={() => void cancel({ id }).then(made)}
          />
        ) : null}
      </div>
      {startable ? <Schedule broadcast={broadcast} onRefused={setRefused} /> : null}
      <MoveRefusal refused={refused} />
    </div>
  );
}
