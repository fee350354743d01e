// A note on the person's timeline (kind note: it moves no stage and fires nothing). addNote is for
// owners and admins; a member sees the button disabled with the reason.
import { FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { graphql } from '../../graphql';
import { ChangeButton, TextArea } from '../../ui/controls';
import { Alert } from '../../ui/state';
import { useChangeRight } from '../../viewer';

const ADD_NOTE = graphql(`
  mutation AddNote($person: String!, $text: String!) {
    addNote(person: $person, text: $text) {
      id
      type
      occurredAt
      detail
    }
  }
`);

export function NoteForm({ personId, onAdded }: { personId: string; onAdded(): void }) {
  const [text, setText] = useState('');
  const [adding, add] = useMutation(ADD_NOTE);
  const right = useChangeRight();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await add({ person: personId, text });
    if (!result.data) return;
    setText('');
    onAdded();
  };
  return (
    <form className="note-form" onSubmit={(e) => void submit(e)}>
      <TextArea
        label="Note"
        value={text}
        onChange={(e) => setText(e.target.value)}
        required
        rows={2}
        disabled={!right.allowed}
        hint="Seen by the team only; it moves no stage and fires nothing."
      />
      <Alert refused={refusalOf(adding.error)} />
      <ChangeButton type="submit" disabled={adding.fetching}>
        {adding.fetching ? 'Adding…' : 'Add note'}
      </ChangeButton>
    </form>
  );
}
