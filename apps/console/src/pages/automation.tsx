// One automation (docs/graphql.md#automations): its status and the buttons that change it, the start
// address of a webhook trigger (owners and admins only), its trigger and steps to edit (runs in
// flight keep the steps they started with), its latest runs with their logs, and how much history it
// passed over (docs/decisions.md#history-starts-no-automation), in one query.
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { Page, Section } from '../ui/page';
import { Loaded } from '../ui/state';
import { Time } from '../ui/time';
import { useChangeRight } from '../viewer';
import { AutomationForm, AutomationInput } from './automations/automation-form';
import { draftOf, stepInWords, triggerInWords } from './automations/draft';
import { RUN_FIELDS, Runs } from './automations/runs';
import { StartAddress } from './automations/start-address';
import { StatusBadge, StatusButtons } from './automations/status';
import './automations/automations.css';

const AUTOMATION = graphql(
  `
    query Automation($id: ID!, $manager: Boolean!) {
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
        runs(first: 20) {
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
    <Section title="Trigger and steps">
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
    </Section>
  );
}

function Automation({ automation, segmentNames }: { automation: Automation; segmentNames: SegmentNames }) {
  return (
    <Page title={automation.name}>
      <Facts automation={automation} segmentNames={segmentNames} />
      <StatusButtons id={automation.id} status={automation.status} />
      {automation.address ? <StartAddress address={automation.address} /> : null}
      <Edit key={automation.id} automation={automation} />
      <Section title="Runs">
        <Runs runs={automation.runs} />
      </Section>
    </Page>
  );
}

export function AutomationPage({ id }: { id: string }) {
  const right = useChangeRight();
  const [result] = useQuery({ query: AUTOMATION, variables: { id, manager: right.allowed } });
  if (!result.data) {
    return (
      <Page title="Automation">
        <Loaded result={result} what="Loading the automation">
          {() => null}
        </Loaded>
      </Page>
    );
  }
  const segmentNames = new Map(result.data.segments.map((s) => [s.id, s.name]));
  return <Automation automation={result.data.automation} segmentNames={segmentNames} />;
}
