// One template (docs/graphql.md#messages-and-templates): its name, subject and body to edit (the same checks
// as creating it), and a preview for a chosen person (previewTemplate renders the SAVED template for
// that person: nothing is sent; Broadcasts shows the same preview). The person lives in the URL (?person=).
import { FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { ChangeButton, Field, TextArea } from '../ui/controls';
import { Page, Section } from '../ui/page';
import { Alert, Failed, Loaded, Loading } from '../ui/state';
import { useChangeRight } from '../viewer';
import { BODY_HINT } from './templates';
import './template.css';

const TEMPLATES = graphql(`
  query TemplateToEdit {
    templates {
      id
      name
      subject
      body
    }
  }
`);

const UPDATE = graphql(`
  mutation UpdateTemplate($id: String!, $input: UpdateTemplateInput!) {
    updateTemplate(id: $id, input: $input) {
      id
      name
      subject
      body
    }
  }
`);

const PREVIEW = graphql(`
  query PreviewTemplate($id: String!, $person: String!) {
    previewTemplate(id: $id, person: $person) {
      subject
      text
      html
    }
  }
`);

type Template = ResultOf<typeof TEMPLATES>['templates'][number];

/** How long typing rests before the preview is asked for. */
const PREVIEW_DELAY_MS = 400;

function Editor({ template, onSaved }: { template: Template; onSaved: () => void }) {
  const [fields, setFields] = useState({ name: template.name, subject: template.subject, body: template.body });
  const [saved, setSaved] = useState(false);
  const [result, update] = useMutation(UPDATE);
  const right = useChangeRight();
  const set = (change: Partial<typeof fields>) => {
    setSaved(false);
    setFields({ ...fields, ...change });
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const answer = await update({ id: template.id, input: fields });
    if (answer.error) return;
    setSaved(true);
    onSaved();
  };
  return (
    <Section title="Edit">
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
            rows={14}
            hint={BODY_HINT}
            value={fields.body}
            onChange={(e) => set({ body: e.target.value })}
          />
        </fieldset>
        <Alert refused={refusalOf(result.error)} />
        <ChangeButton type="submit" disabled={result.fetching}>
          Save
        </ChangeButton>
        {saved ? (
          <span className="notice saved" role="status">
            Saved: the preview shows it now.
          </span>
        ) : null}
      </form>
    </Section>
  );
}

/** The person field, sent to the URL once typing rests (replacing, so Back leaves the page); a URL
 * changed from outside (back, forward, a link) fills the field again. */
function usePreviewPerson(): [typed: string, type: (value: string) => void, asked: string] {
  const [params, setParams] = useSearchParams();
  const asked = params.get('person') ?? '';
  const [typed, setTyped] = useState(asked);
  const written = useRef(asked);
  useEffect(() => {
    if (asked !== written.current) setTyped(asked);
    written.current = asked;
  }, [asked]);
  useEffect(() => {
    const person = typed.trim();
    if (person === asked) return;
    const write = () => {
      written.current = person;
      setParams((prev) => personParams(prev, person), { replace: true });
    };
    const timer = setTimeout(write, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, asked, setParams]);
  return [typed, setTyped, asked];
}

function personParams(prev: URLSearchParams, person: string): URLSearchParams {
  const next = new URLSearchParams(prev);
  if (person) next.set('person', person);
  else next.delete('person');
  return next;
}

export function Rendered({ id, person, revision }: { id: string; person: string; revision: number }) {
  const [result, reexecute] = useQuery({ query: PREVIEW, variables: { id, person }, pause: !person });
  useEffect(() => {
    if (revision > 0) reexecute({ requestPolicy: 'network-only' });
  }, [revision, reexecute]);
  if (!person) return <p className="hint">Name a person above to see the email as they would get it.</p>;
  if (result.error) return <Failed error={result.error} />;
  if (!result.data || result.fetching) return <Loading what={`Filling the template in for ${person}`} />;
  const { subject, text, html } = result.data.previewTemplate;
  return (
    <div className="preview">
      <dl className="facts">
        <dt>Subject</dt>
        <dd>{subject}</dd>
      </dl>
      <iframe sandbox="" srcDoc={html} title="Preview" className="preview-frame" />
      <h3>Plain text</h3>
      <pre className="preview-text">{text}</pre>
    </div>
  );
}

function Preview({ id, revision }: { id: string; revision: number }) {
  const [typed, type, asked] = usePreviewPerson();
  return (
    <Section title="Preview">
      <p className="hint">The preview shows the saved template: Save to preview your changes. Nothing is sent.</p>
      <Field
        label="Preview for"
        value={typed}
        placeholder="ada@example.com"
        hint="A person's email or record id."
        onChange={(e) => type(e.target.value)}
      />
      <Rendered id={id} person={asked} revision={revision} />
    </Section>
  );
}

function TemplateView({ template }: { template: Template }) {
  const [revision, setRevision] = useState(0);
  return (
    <Page title={template.name}>
      <div className="template-grid">
        <Editor key={template.id} template={template} onSaved={() => setRevision((n) => n + 1)} />
        <Preview id={template.id} revision={revision} />
      </div>
    </Page>
  );
}

export function TemplatePage({ id }: { id: string }) {
  const [result] = useQuery({ query: TEMPLATES, context: useMemo(() => ({ additionalTypenames: ['Template'] }), []) });
  const template = result.data?.templates.find((t) => t.id === id);
  if (template) return <TemplateView template={template} />;
  return (
    <Page title="Template">
      <Loaded result={result} what="Loading the template">
        {() => (
          <Alert
            refused={{ code: 'unknown_template', message: `No template has the id "${id}": open one from Templates.` }}
          />
        )}
      </Loaded>
    </Page>
  );
}
