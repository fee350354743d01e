// A new broadcast (docs/graphql.md#broadcasts): its name, its audience (a list or a segment, with how many now) and
// its email: a template of the workspace, previewed for a person as they would get it, or a subject and body
// written here. It is saved as a draft; its page sends it, schedules it and sends a test.
import { FormEvent, useState } from 'react';
import { useQuery } from 'urql';
import { Refused } from '../../client';
import { graphql } from '../../graphql';
import { Checkbox } from '../../ui/checkbox';
import { ChangeButton, Field, Select, TextArea } from '../../ui/controls';
import { Alert } from '../../ui/state';
import { useChangeRight } from '../../viewer';
import { Rendered } from '../template';
import { BODY_HINT } from '../templates';
import { Audience, AudienceChoice } from './audience';

const TEMPLATES = graphql(`
  query BroadcastTemplates {
    templates {
      id
      name
      subject
    }
  }
`);

export interface BroadcastDraft {
  name: string;
  list?: string;
  segment?: string;
  template?: string;
  subject?: string;
  body?: string;
}

type Content = { kind: 'template'; template: string } | { kind: 'written'; subject: string; body: string };

function draftOf(name: string, audience: Audience, content: Content): BroadcastDraft {
  const who = audience.kind === 'list' ? { list: audience.value } : { segment: audience.value };
  const what =
    content.kind === 'template' ? { template: content.template } : { subject: content.subject, body: content.body };
  return { name: name.trim(), ...who, ...what };
}

/** The saved template as a chosen person would get it (previewTemplate: nothing is sent). */
function TemplatePreview({ id }: { id: string }) {
  const [person, setPerson] = useState('');
  const [asked, setAsked] = useState('');
  return (
    <div className="template-preview">
      <form
        className="inline-edit"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(person.trim());
        }}
      >
        <Field
          label="Preview for"
          value={person}
          placeholder="ada@example.com"
          hint="A person's email or record id: the template filled in for them. Nothing is sent."
          onChange={(e) => setPerson(e.target.value)}
        />
        <button type="submit" className="secondary">
          Preview
        </button>
      </form>
      <Rendered id={id} person={asked} revision={0} />
    </div>
  );
}

function ContentChoice({ content, onChange }: { content: Content; onChange: (content: Content) => void }) {
  const [templates] = useQuery({ query: TEMPLATES });
  const chosen = content.kind === 'template' ? templates.data?.templates.find((t) => t.id === content.template) : null;
  return (
    <fieldset className="choices content">
      <legend>Email</legend>
      <div className="kinds">
        <Checkbox
          type="radio"
          name="broadcast-content"
          label="A template"
          checked={content.kind === 'template'}
          onChange={() => onChange({ kind: 'template', template: '' })}
        />
        <Checkbox
          type="radio"
          name="broadcast-content"
          label="Write it here"
          checked={content.kind === 'written'}
          onChange={() => onChange({ kind: 'written', subject: '', body: '' })}
        />
      </div>
      {content.kind === 'template' ? (
        <>
          <Select
            label="Template"
            required
            value={content.template}
            onChange={(e) => onChange({ kind: 'template', template: e.target.value })}
          >
            <option value="">Choose…</option>
            {(templates.data?.templates ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </Select>
          {chosen ? <p className="hint">Subject: {chosen.subject}</p> : null}
        </>
      ) : (
        <>
          <Field
            label="Subject"
            required
            maxLength={200}
            value={content.subject}
            onChange={(e) => onChange({ ...content, subject: e.target.value })}
          />
          <TextArea
            label="Body"
            required
            rows={10}
            hint={`${BODY_HINT} The footer with the postal address and the unsubscribe link is added.`}
            value={content.body}
            onChange={(e) => onChange({ ...content, body: e.target.value })}
          />
        </>
      )}
    </fieldset>
  );
}

export function ComposeForm({
  fetching,
  refused,
  onSubmit,
}: {
  fetching: boolean;
  refused: Refused | null;
  onSubmit: (draft: BroadcastDraft) => Promise<void>;
}) {
  const right = useChangeRight();
  const [name, setName] = useState('');
  const [audience, setAudience] = useState<Audience>({ kind: 'list', value: '' });
  const [content, setContent] = useState<Content>({ kind: 'template', template: '' });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSubmit(draftOf(name, audience, content));
  };
  return (
    <div className="compose-grid">
      <form onSubmit={submit} className="compose" aria-label="New broadcast">
        <fieldset disabled={!right.allowed} className="plain">
          <Field label="Name" required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
          <AudienceChoice audience={audience} onChange={setAudience} />
          <ContentChoice content={content} onChange={setContent} />
        </fieldset>
        <Alert refused={refused} />
        <ChangeButton type="submit" disabled={fetching}>
          Save draft
        </ChangeButton>
      </form>
      {content.kind === 'template' && content.template ? <TemplatePreview id={content.template} /> : null}
    </div>
  );
}
