// Templates (docs/graphql.md#messages-and-templates): subject and body in Markdown with Liquid variables; one
// with a syntax error is refused with the service's sentence. Each opens on its own page to edit and
// preview for a person.
import { FormEvent, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { ChangeButton, Field, TextArea } from '../ui/controls';
import { Page, Section } from '../ui/page';
import { Alert, Empty, Loaded } from '../ui/state';
import { useChangeRight } from '../viewer';

const TEMPLATES = graphql(`
  query Templates {
    templates {
      id
      name
      subject
    }
  }
`);

const CREATE = graphql(`
  mutation CreateTemplate($input: CreateTemplateInput!) {
    createTemplate(input: $input) {
      id
      name
      subject
      body
    }
  }
`);

export const BODY_HINT = 'Markdown with Liquid variables, like {{ person.name }} or {{ person.fields.plan }}.';

function TemplateTable({ templates }: { templates: ResultOf<typeof TEMPLATES>['templates'] }) {
  if (templates.length === 0) return <Empty>No templates yet: write the first one below.</Empty>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Subject</th>
        </tr>
      </thead>
      <tbody>
        {templates.map((t) => (
          <tr key={t.id}>
            <td>
              <Link href={`/templates/${t.id}`}>{t.name}</Link>
            </td>
            <td>{t.subject}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NewTemplate() {
  const [fields, setFields] = useState({ name: '', subject: '', body: '' });
  const [result, create] = useMutation(CREATE);
  const [, navigate] = useLocation();
  const right = useChangeRight();
  const set = (change: Partial<typeof fields>) => setFields({ ...fields, ...change });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const answer = await create({ input: fields });
    if (answer.data) navigate(`/templates/${answer.data.createTemplate.id}`);
  };
  return (
    <Section title="New template">
      <form onSubmit={(e) => void submit(e)}>
        <fieldset disabled={!right.allowed} className="plain">
          <Field
            label="Name"
            required
            maxLength={200}
            value={fields.name}
            onChange={(e) => set({ name: e.target.value })}
          />
          <Field label="Subject" required value={fields.subject} onChange={(e) => set({ subject: e.target.value })} />
          <TextArea
            label="Body"
            required
            hint={BODY_HINT}
            value={fields.body}
            onChange={(e) => set({ body: e.target.value })}
          />
        </fieldset>
        <Alert refused={refusalOf(result.error)} />
        <ChangeButton type="submit" disabled={result.fetching}>
          Create template
        </ChangeButton>
      </form>
    </Section>
  );
}

export function TemplatesPage() {
  const [result] = useQuery({ query: TEMPLATES, context: useMemo(() => ({ additionalTypenames: ['Template'] }), []) });
  return (
    <Page title="Templates">
      <Loaded result={result} what="Loading templates">
        {(data) => <TemplateTable templates={data.templates} />}
      </Loaded>
      <NewTemplate />
    </Page>
  );
}
