// Automations (docs/graphql.md#automations): the workspace's automations by number, and a new one (a
// draft) written here; once created its own page shows it, with the start address of a webhook trigger.
import { useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { Page, Section } from '../ui/page';
import { Empty, Loaded } from '../ui/state';
import { Time } from '../ui/time';
import { AutomationForm, AutomationInput } from './automations/automation-form';
import { EMPTY_DRAFT, triggerInWords } from './automations/draft';
import { StatusBadge } from './automations/status';
import './automations/automations.css';

const AUTOMATIONS = graphql(`
  query Automations {
    automations {
      id
      number
      name
      status
      createdAt
      trigger {
        kind
        event
        stage
        list
        segment
      }
    }
    segments {
      id
      name
    }
  }
`);

const CREATE = graphql(`
  mutation CreateAutomation($input: CreateAutomationInput!) {
    createAutomation(input: $input) {
      automation {
        id
        number
        name
        status
      }
      address
    }
  }
`);

function AutomationTable({ automations, segments }: ResultOf<typeof AUTOMATIONS>) {
  const segmentNames = new Map(segments.map((s) => [s.id, s.name]));
  if (automations.length === 0) return <Empty>No automations yet: write the first one below.</Empty>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col" className="number">
            Number
          </th>
          <th scope="col">Name</th>
          <th scope="col">Trigger</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {automations.map((a) => (
          <tr key={a.id}>
            <td className="number">{a.number}</td>
            <td>
              <Link href={`/automations/${a.id}`}>{a.name}</Link>
            </td>
            <td>{triggerInWords(a.trigger, segmentNames)}</td>
            <td>
              <StatusBadge status={a.status} />
            </td>
            <td>
              <Time value={a.createdAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NewAutomation() {
  const [result, create] = useMutation(CREATE);
  const [, navigate] = useLocation();
  const submit = async (input: AutomationInput) => {
    const answer = await create({ input });
    const made = answer.data?.createAutomation.automation;
    if (made) navigate(`/automations/${made.id}`);
  };
  return (
    <Section title="New automation">
      <p className="hint">A new automation is a draft: it starts no runs until you start it on its page.</p>
      <AutomationForm
        initial={EMPTY_DRAFT}
        submitLabel="Create automation"
        busy={result.fetching}
        refused={refusalOf(result.error)}
        onSubmit={(input) => void submit(input)}
      />
    </Section>
  );
}

export function AutomationsPage() {
  const [result] = useQuery({
    query: AUTOMATIONS,
    context: useMemo(() => ({ additionalTypenames: ['Automation', 'Segment'] }), []),
  });
  return (
    <Page title="Automations">
      <Loaded result={result} what="Loading automations">
        {(data) => <AutomationTable automations={data.automations} segments={data.segments} />}
      </Loaded>
      <NewAutomation />
    </Page>
  );
}
