// A person's emails in and out, newest first, and sending one: a subject and body (Markdown with
// Liquid), or a template. Any member of the workspace may send (sendMessage, as POST /api/v1/messages);
// a refusal (not_engaged, no_email...) shows the service's own sentence.
import { FormEvent, useId, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../../client';
import { FragmentOf, graphql, readFragment, ResultOf } from '../../graphql';
import { Section } from '../../ui/page';
import { Field, Select, TextArea } from '../../ui/controls';
import { Alert, Empty } from '../../ui/state';
import { Time } from '../../ui/time';

export const PERSON_EMAILS = graphql(`
  fragment PersonEmails on Person {
    messages(first: 50) {
      id
      at
      direction
      subject
      text
      status
    }
  }
`);

const TEMPLATES = graphql(`
  query SendTemplates {
    templates {
      id
      name
    }
  }
`);

const SEND = graphql(`
  mutation SendEmail($input: SendMessageInput!) {
    sendMessage(input: $input) {
      id
      at
      direction
      subject
      text
      status
    }
  }
`);

export function Emails({
  personId,
  person,
  onSent,
}: {
  personId: string;
  person: FragmentOf<typeof PERSON_EMAILS>;
  onSent(): void;
}) {
  const { messages } = readFragment(PERSON_EMAILS, person);
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const formId = useId();
  const toggle = (
    <button type="button" aria-expanded={open} aria-controls={formId} onClick={() => (setOpen(!open), setSent(null))}>
      Send email
    </button>
  );
  return (
    <Section title="Emails" actions={toggle}>
      {sent ? (
        <p className="notice" role="status">
          Sent: {sent}
        </p>
      ) : null}
      {open ? (
        <SendForm
          id={formId}
          personId={personId}
          onSent={(subject) => {
            setOpen(false);
            setSent(subject);
            onSent();
          }}
        />
      ) : null}
      {messages.length === 0 ? <Empty>No emails in or out yet.</Empty> : <EmailTable messages={messages} />}
    </Section>
  );
}

type Message = ResultOf<typeof PERSON_EMAILS>['messages'][number];

function EmailTable({ messages }: { messages: Message[] }) {
  return (
    <table aria-label="Emails">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Direction</th>
          <th scope="col">Subject</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((m) => (
          <tr key={m.id}>
            <td>
              <Time value={m.at} />
            </td>
            <td>{m.direction === 'in' ? 'In (from them)' : 'Out (to them)'}</td>
            <td>
              <details>
                <summary>{m.subject}</summary>
                <pre className="email-text">{m.text}</pre>
              </details>
            </td>
            <td>{m.status ?? <span className="muted">stored</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SendForm({ id, personId, onSent }: { id: string; personId: string; onSent(subject: string): void }) {
  const [templates] = useQuery({ query: TEMPLATES });
  const [sending, send] = useMutation(SEND);
  const [template, setTemplate] = useState('');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      person: personId,
      template: template || undefined,
      subject: subject || undefined,
      body: body || undefined,
    };
    const result = await send({ input });
    if (result.data) onSent(result.data.sendMessage.subject);
  };
  const optional = template ? ' (optional: overrides the template)' : '';
  return (
    <form id={id} className="send-email" onSubmit={(e) => void submit(e)}>
      <Select label="Template" value={template} onChange={(e) => setTemplate(e.target.value)}>
        <option value="">None: write the subject and body</option>
        {(templates.data?.templates ?? []).map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </Select>
      <Field
        label="Subject"
        value={subject}
        onChange={(e) => setSubject(e.target.value)}
        required={!template}
        hint={`2 to 200 characters${optional}.`}
      />
      <TextArea
        label="Body"
        value={body}
        onChange={(e) => setBody(e.target.value)}
        required={!template}
        hint={`Markdown with Liquid variables, like {{ person.name }}${optional}.`}
      />
      <Alert refused={refusalOf(sending.error)} />
      <button type="submit" disabled={sending.fetching}>
        {sending.fetching ? 'Sending…' : 'Send'}
      </button>
    </form>
  );
}
