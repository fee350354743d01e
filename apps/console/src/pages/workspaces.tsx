// Workspaces (/workspaces): the operator's page. Every workspace of the deployment, and creating one
// as the CLI does (decisions.md, Operator CLI): its owner's secret key is shown once, here.
import { FormEvent, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { Field, ShownOnce, TextArea } from '../ui/controls';
import { Page, Section } from '../ui/page';
import { Alert, Empty, Loaded } from '../ui/state';
import { Checkbox } from '../ui/checkbox';

const WORKSPACES = graphql(`
  query Workspaces {
    workspaces {
      id
      slug
      name
      kind
      publicKey
      publicBaseUrl
    }
  }
`);

const CREATE_WORKSPACE = graphql(`
  mutation CreateWorkspace($input: CreateWorkspaceInput!) {
    createWorkspace(input: $input) {
      workspace {
        id
        slug
      }
      publicKey
      secretKey
      publicBaseUrl
    }
  }
`);

type Workspace = ResultOf<typeof WORKSPACES>['workspaces'][number];
type Created = ResultOf<typeof CREATE_WORKSPACE>['createWorkspace'];

function WorkspaceRows({ workspaces }: { workspaces: Workspace[] }) {
  if (workspaces.length === 0) return <Empty>No workspaces yet: create the first below.</Empty>;
  return (
    <table>
      <caption className="muted">Every workspace of this deployment</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Slug</th>
          <th scope="col">Kind</th>
          <th scope="col">Public key</th>
          <th scope="col">Public base URL</th>
        </tr>
      </thead>
      <tbody>
        {workspaces.map((w) => (
          <tr key={w.id}>
            <td>{w.name}</td>
            <td>{w.slug}</td>
            <td>{w.kind}</td>
            <td>
              <code>{w.publicKey}</code>
            </td>
            <td>
              <code>{w.publicBaseUrl}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreatedFacts({ created }: { created: Created }) {
  return (
    <>
      <ShownOnce label={`Secret key of ${created.workspace.slug}`} value={created.secretKey} />
      <dl className="facts">
        <dt>Public key</dt>
        <dd>
          <code>{created.publicKey}</code>
        </dd>
        <dt>Public base URL</dt>
        <dd>
          <code>{created.publicBaseUrl}</code>
        </dd>
      </dl>
    </>
  );
}

function CreateWorkspace({ onCreated }: { onCreated: () => void }) {
  const [form, setForm] = useState({ slug: '', owner: '', name: '', origins: '', web: false });
  const [created, setCreated] = useState<Created | null>(null);
  const [state, create] = useMutation(CREATE_WORKSPACE);
  const set = (field: keyof typeof form) => (value: string | boolean) => setForm((now) => ({ ...now, [field]: value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const origins = form.origins
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const input = {
      slug: form.slug.trim(),
      owner: form.owner.trim(),
      name: form.name.trim() || undefined,
      origins,
      web: form.web,
    };
    const result = await create({ input });
    if (!result.data) return;
    setCreated(result.data.createWorkspace);
    setForm({ slug: '', owner: '', name: '', origins: '', web: false });
    onCreated();
  };
  return (
    <Section title="Create a workspace">
      {created ? <CreatedFacts created={created} /> : null}
      <form onSubmit={submit} aria-label="Create a workspace">
        <Field
          label="Slug"
          required
          value={form.slug}
          onChange={(e) => set('slug')(e.target.value)}
          hint="Lowercase letters, digits and dashes, like acme."
        />
        <Field
          label="Owner email"
          type="email"
          required
          value={form.owner}
          onChange={(e) => set('owner')(e.target.value)}
        />
        <Field
          label="Name"
          value={form.name}
          onChange={(e) => set('name')(e.target.value)}
          hint="Shown in the console; the slug when left empty."
        />
        <TextArea
          label="Allowed origins"
          value={form.origins}
          onChange={(e) => set('origins')(e.target.value)}
          hint="One per line: the sites whose pages may post with the public key, like https://acme.test."
        />
        <Checkbox
          label="Web app"
          hint="A web-app workspace has no Downloader stage."
          checked={form.web}
          onChange={(e) => set('web')(e.target.checked)}
        />
        <button type="submit" disabled={state.fetching}>
          Create workspace
        </button>
      </form>
      <Alert refused={refusalOf(state.error)} />
    </Section>
  );
}

export function WorkspacesPage() {
  const [result, reexecute] = useQuery({ query: WORKSPACES });
  return (
    <Page title="Workspaces">
      <Section title="All workspaces">
        <Loaded result={result} what="Loading the workspaces">
          {(data) => <WorkspaceRows workspaces={data.workspaces} />}
        </Loaded>
      </Section>
      <CreateWorkspace onCreated={() => reexecute({ requestPolicy: 'network-only' })} />
    </Page>
  );
}
