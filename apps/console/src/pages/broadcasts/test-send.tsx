// The test send (docs/graphql.md#broadcasts): one email of the broadcast, marked [Test], to the signed-in member
// (or another member's address); nothing is stored and nobody of the audience gets it. Says where it went.
import { FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { graphql } from '../../graphql';
import { ChangeButton, Field } from '../../ui/controls';
import { useViewer } from '../../viewer';
import { MoveRefusal } from './moves';

const SEND_TEST = graphql(`
  mutation SendBroadcastTest($id: ID!, $email: String) {
    sendBroadcastTest(id: $id, email: $email)
  }
`);

export function TestSend({ id }: { id: string }) {
  const viewer = useViewer();
  const [email, setEmail] = useState(viewer.email ?? '');
  const [result, sendTest] = useMutation(SEND_TEST);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSentTo(null);
    const answer = await sendTest({ id, email: email.trim() || null });
    if (answer.data) setSentTo(answer.data.sendBroadcastTest);
  };
  return (
    <form className="test-send" onSubmit={(e) => void submit(e)} aria-label="Send a test">
      <div className="inline-edit">
        <Field
          label="Test to"
          type="email"
          value={email}
          hint="Yours, or another member's address. Marked [Test]; nobody in the audience gets it."
          onChange={(e) => {
            setSentTo(null);
            setEmail(e.target.value);
          }}
        />
        <ChangeButton type="submit" className="secondary" disabled={result.fetching}>
          {result.fetching ? 'Sending the test…' : 'Send a test'}
        </ChangeButton>
      </div>
      <p role="status" className={sentTo ? 'notice' : 'test-sent'}>
        {sentTo ? `A test went to ${sentTo}: look for [Test] in its inbox.` : ''}
      </p>
      {result.error ? <MoveRefusal refused={refusalOf(result.error)} /> : null}
    </form>
  );
}
