// The workspace itself (name, slug, keys for the website) and its settings: allowed origins (the sites
// whose pages may post with the public key), the Trial and Downloader stages, and the events that
// also count as activation (docs/rest.md#events), the history window (events older than it on
// arrival start no automation: docs/decisions.md#history-starts-no-automation) and the postal address
// every broadcast's footer carries (docs/graphql.md#broadcasts; /settings#postal-address scrolls to it).
import { FormEvent, useEffect, useState } from 'react';
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { graphql, ResultOf } from '../../graphql';
import { Field, TextArea } from '../../ui/controls';
import { Section } from '../../ui/page';
import { Alert } from '../../ui/state';
import { Checkbox } from '../../ui/checkbox';
import { useReadOnly } from './read-only';

export const WORKSPACE_SETTINGS = graphql(`
  query WorkspaceSettings {
    workspace {
      id
      slug
      name
      kind
      publicKey
      publicBaseUrl
      allowedOrigins
      trialStage
      downloaderStage
      activationEvents
      historyWindowHours
      postalAddress
    }
    eventNames {
      name
      builtIn
    }
  }
`);

const UPDATE_SETTINGS = graphql(`
  mutation UpdateWorkspaceSettings($input: UpdateWorkspaceSettingsInput!) {
    updateWorkspaceSettings(input: $input) {
      id
      allowedOrigins
      trialStage
      downloaderStage
      activationEvents
      historyWindowHours
      postalAddress
    }
  }
`);

type Answer = ResultOf<typeof WORKSPACE_SETTINGS>;
type Workspace = Answer['workspace'];

export function WorkspaceFacts({ workspace }: { workspace: Workspace }) {
  const tag = `<script async src="${workspace.publicBaseUrl}/track.js"></script>`;
  return (
    <Section title="Workspace">
      <dl className="facts">
        <dt>Name</dt>
        <dd>{workspace.name}</dd>
        <dt>Slug</dt>
        <dd>{workspace.slug}</dd>
        <dt>Kind</dt>
        <dd>{workspace.kind === 'web' ? 'web app (no Downloader stage)' : 'app (has a Downloader stage)'}</dd>
        <dt>Public key</dt>
        <dd>
          <code>{workspace.publicKey}</code>
        </dd>
        <dt>Public base URL</dt>
        <dd>
          <code>{workspace.publicBaseUrl}</code>
        </dd>
        <dt>Website tag</dt>
        <dd>
          <pre className="tag">
            <code>{tag}</code>
          </pre>
          <small className="hint">
            Paste it into every page of the site; it needs only the public key, never a secret key.
          </small>
        </dd>
      </dl>
    </Section>
  );
}

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The events a workspace may count as activation: built-in names, then the custom names it has seen or chose. */
function activationChoices(answer: Answer): string[] {
  const builtIn = answer.eventNames.filter((e) => e.builtIn).map((e) => e.name);
  const custom = [
    ...answer.eventNames.filter((e) => !e.builtIn).map((e) => e.name),
    ...answer.workspace.activationEvents,
  ].sort();
  return [...new Set([...builtIn, ...custom])].filter((name) => name !== 'activated');
}

function ActivationEvents({
  choices,
  chosen,
  onToggle,
}: {
  choices: string[];
  chosen: Set<string>;
  onToggle: (name: string) => void;
}) {
  return (
    <fieldset className="choices">
      <legend>Activation events</legend>
      <p className="hint">An activated event always moves a person to Activated; the events ticked here do too.</p>
      <div className="grid">
        {choices.map((name) => (
          <Checkbox key={name} label={name} checked={chosen.has(name)} onChange={() => onToggle(name)} />
        ))}
      </div>
    </fieldset>
  );
}

function StageChoices({
  kind,
  trialStage,
  downloaderStage,
  onTrial,
  onDownloader,
}: {
  kind: string;
  trialStage: boolean;
  downloaderStage: boolean;
  onTrial: (on: boolean) => void;
  onDownloader: (on: boolean) => void;
}) {
  return (
    <>
      <Checkbox
        label="Trial stage"
        hint="trial_started moves people to Trial (never past a paid stage)."
        checked={trialStage}
        onChange={(e) => onTrial(e.target.checked)}
      />
      <Checkbox
        label="Downloader stage"
        hint={kind === 'web' ? 'A web-app workspace has no Downloader stage.' : 'download moves people to Downloader.'}
        checked={kind !== 'web' && downloaderStage}
        disabled={kind === 'web'}
        onChange={(e) => onDownloader(e.target.checked)}
      />
    </>
  );
}

/** The postal address; a link to /settings#postal-address (a refused broadcast's) brings it into view. */
function PostalAddress({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  useEffect(() => {
    if (location.hash === '#postal-address') document.getElementById('postal-address')?.scrollIntoView();
  }, []);
  return (
    <div id="postal-address">
      <TextArea
        label="Postal address"
        hint={
          "The sender's postal address, which anti-spam rules ask of bulk email: every broadcast's footer carries " +
          'it, lines kept. Up to 500 characters; a broadcast cannot be sent until it is set.'
        }
        rows={3}
        maxLength={500}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

export function SettingsForm({ answer }: { answer: Answer }) {
  const { workspace } = answer;
  const readOnly = useReadOnly();
  const [origins, setOrigins] = useState(workspace.allowedOrigins.join('\n'));
  const [trialStage, setTrialStage] = useState(workspace.trialStage);
  const [downloaderStage, setDownloaderStage] = useState(workspace.downloaderStage);
  const [chosen, setChosen] = useState(() => new Set(workspace.activationEvents));
  const [another, setAnother] = useState('');
  const [windowHours, setWindowHours] = useState(String(workspace.historyWindowHours));
  const [postalAddress, setPostalAddress] = useState(workspace.postalAddress ?? '');
  const [saved, setSaved] = useState(false);
  const [state, update] = useMutation(UPDATE_SETTINGS);
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      setSaved(false);
      set(value);
    };
  const toggle = changed((name: string) =>
    setChosen((now) => new Set(now.has(name) ? [...now].filter((n) => n !== name) : [...now, name])),
  );
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const activationEvents = [...chosen, ...linesOf(another.replace(/[\s,]+/g, '\n'))];
    const input = {
      allowedOrigins: linesOf(origins),
      trialStage,
      activationEvents,
      historyWindowHours: Number(windowHours),
      postalAddress: postalAddress.trim(),
      ...(workspace.kind === 'web' ? {} : { downloaderStage }),
    };
    const result = await update({ input });
    const done = result.data?.updateWorkspaceSettings;
    if (!done) return;
    setOrigins(done.allowedOrigins.join('\n'));
    setChosen(new Set(done.activationEvents));
    setWindowHours(String(done.historyWindowHours));
    setPostalAddress(done.postalAddress ?? '');
    setAnother('');
    setSaved(true);
  };
  return (
    <Section title="Workspace settings">
      {readOnly.note}
      <form onSubmit={save} aria-label="Workspace settings">
        <fieldset className="plain" disabled={!readOnly.allowed}>
          <TextArea
            label="Allowed origins"
            hint={
              'One per line: the sites whose pages may post with the public key, like https://acme.test, ' +
              'https://*.acme.test or http://localhost:*.'
            }
            value={origins}
            onChange={(e) => changed(setOrigins)(e.target.value)}
          />
          <StageChoices
            kind={workspace.kind}
            trialStage={trialStage}
            downloaderStage={downloaderStage}
            onTrial={changed(setTrialStage)}
            onDownloader={changed(setDownloaderStage)}
          />
          <ActivationEvents choices={activationChoices(answer)} chosen={chosen} onToggle={toggle} />
          <Field
            label="Another activation event"
            hint="A custom event name not seen yet (2 to 40 of a-z, 0-9, _); several separated by spaces."
            value={another}
            onChange={(e) => changed(setAnother)(e.target.value)}
          />
          <Field
            label="History window (hours)"
            hint={
              'An event that happened more than this long before it arrives, or came through /v1/import, is ' +
              'history: recorded, but it starts no automation. 1 to 8760 (a year).'
            }
            type="number"
            min={1}
            max={8760}
            step={1}
            required
            value={windowHours}
            onChange={(e) => changed(setWindowHours)(e.target.value)}
          />
          <PostalAddress value={postalAddress} onChange={changed(setPostalAddress)} />
          <button type="submit" disabled={state.fetching} aria-describedby={readOnly.reasonId}>
            Save
          </button>
        </fieldset>
      </form>
      <Alert refused={refusalOf(state.error)} />
      {saved && !state.error ? (
        <p className="notice" role="status">
          Settings saved.
        </p>
      ) : null}
    </Section>
  );
}
