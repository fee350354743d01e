// One automation (docs/graphql.md#automations): its status and the buttons that change it, the start
// address of a webhook trigger (owners and admins only), its latest runs as a table with a status filter
// (docs/console.md#logs), its trigger and steps to edit, folded unless it is a draft (runs in flight keep
// the steps they started with), and how much history it passed over
// (docs/decisions.md#history-starts-no-automation), in one query.
import { useRef, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { Page, Section } from '../ui/page';
import { StateFilter } from '../ui/log-table';
import { Empty, Loaded } from '../ui/state';
import { Time } from '../ui/time';
import { useChangeRight } from '../viewer';
import { AutomationForm, AutomationInput } from './automations/automation-form';
import { draftOf, stepInWords, triggerInWords } from './automations/draft';
import { RUN_FIELDS, RUN_STATES, Runs } from './automations/runs';
import { StartAddress } from './automations/start-address';
import { StatusBadge, StatusButtons } from './automations/status';
import './automations/automations.css';

const AUTOMATION = graphql(
  `
    query Automation($id: ID!, $manager: Boolean!, $status: String) {
      automation(id: $id) {
        id
        number
        name
        status
        createdAt
        passedOverHistory
        address @include(if: $manager)
        trigger {
          kind
          event
          stage
          list
          segment
        }
        steps {
          kind
          url
          template
          seconds
        }
        runs(first: 20, status: $status) {
          ...AutomationRunFields
        }
      }
      segments {
        id
        name
      }
    }
  `,
  [RUN_FIELDS],
);

const UPDATE = graphql(`
  mutation UpdateAutomation($id: ID!, $input: UpdateAutomationInput!) {
    updateAutomation(id: $id, input: $input) {
      id
      name
      status
      trigger {
        kind
        event
        stage
        list
        segment
      }
      steps {
        kind
        url
        template
        seconds
      }
    }
  }
`);

type Automation = ResultOf<typeof AUTOMATION>['automation'];
type SegmentNames = ReadonlyMap<string, string>;

function Facts({ automation, segmentNames }: { automation: Automation; segmentNames: SegmentNames }) {
  return (
    <dl className="facts">
      <dt>Number</dt>
      <dd>{automation.number}</dd>
      <dt>Status</dt>
      <dd>
        <StatusBadge status={automation.status} />
      </dd>
      <dt>Trigger</dt>
      <dd>{triggerInWords(automation.trigger, segmentNames)}</dd>
      <dt>Steps</dt>
      <dd>
        {automation.steps.length ? (
          <ol className="plain-steps">
            {automation.steps.map((step, i) => (
              <li key={i}>{stepInWords(step)}</li>
            ))}
          </ol>
        ) : (
          <span className="muted">none</span>
        )}
      </dd>
      <dt>Created</dt>
      <dd>
        <Time value={automation.createdAt} />
      </dd>
      <dt>History passed over</dt>
      <dd>
        {automation.passedOverHistory === 1 ? '1 event' : `${automation.passedOverHistory} events`}{' '}
        <span className="muted">
          (imported, or older than the workspace history window when they arrived: they start no run)
        </span>
      </dd>
    </dl>
  );
}

function Edit({ automation }: { automation: Automation }) {
  const [result, update] = useMutation(UPDATE);
  const [saved, setSaved] = useState(false);
  const submit = async (input: AutomationInput) => {
    setSaved(false);
    const answer = await update({ id: automation.id, input });
    setSaved(!answer.error);
  };
  return (
    <details className="folded" open={automation.status === 'draft'}>
      <summary>Edit trigger and steps</summary>
      <p className="hint">
        Saving changes the automation from now on: runs in flight keep the steps they started with.
      </p>
      <AutomationForm
        initial={draftOf(automation)}
        submitLabel="Save changes"
        busy={result.fetching}
        refused={refusalOf(result.error)}
        onSubmit={(input) => void submit(input)}
      />
      {saved ? (
        <p className="notice" role="status">
          Saved.
        </p>
      ) : null}
    </details>
  );
}

interface Filter {
  status: string;
  setStatus: (status: string) => void;
}

function RunLog({ automation, filter }: { automation: Automation; filter: Filter }) {
  const count = automation.runs.length;
  const which = filter.status ? ` ${filter.status}` : '';
  const shown = `${count} ${count === 1 ? 'run' : 'runs'}${which}, the latest 20 at most`;
  return (
    <Section
      title="Runs"
      actions={
        <StateFilter
          label="Status"
          states={RUN_STATES}
          value={filter.status}
          shown={shown}
          onChange={filter.setStatus}
        />
      }
    >
      {count > 0 ? (
        <Runs runs={automation.runs} />
      ) : (
        <Empty>
          {filter.status ? `No ${filter.status} runs.` : 'No runs yet. Only a running automation starts runs.'}
        </Empty>
      )}
    </Section>
  );
}

function Automation({
  automation,
  segmentNames,
  filter,
}: {
  automation: Automation;
  segmentNames: SegmentNames;
  filter: Filter;
}) {
  return (
    <Page title={automation.name}>
      <Facts automation={automation} segmentNames={segmentNames} />
      <StatusButtons id={automation.id} status={automation.status} />
      {automation.address ? <StartAddress address={automation.address} /> : null}
      <RunLog automation={automation} filter={filter} />
      <Section title="Trigger and steps">
        <Edit key={automation.id} automation={automation} />
      </Section>
    </Page>
  );
}

type Data = ResultOf<typeof AUTOMATION>;

export function AutomationPage({ id }: { id: string }) {
  const right = useChangeRight();
  const [status, setStatus] = useState('');
  const [result] = useQuery({ query: AUTOMATION, variables: { id, manager: right.allowed, status: status || null } });
  // While another status's runs load, the page keeps showing the last answer (the filter keeps its focus).
  const last = useRef<Data | undefined>(undefined);
  if (result.data || !result.fetching) last.current = result.data;
  const data = last.current;
  if (!data) {
    return (
      <Page title="Automation">
        <Loaded result={result} what="Loading the automation">
          {() => null}
        </Loaded>
      </Page>
    );
  }
  const segmentNames = new Map(data.segments.map((s) => [s.id, s.name]));
  return <Automation automation={data.automation} segmentNames={segmentNames} filter={{ status, setStatus }} />;
}
