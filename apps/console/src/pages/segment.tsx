// One segment (docs/graphql.md#segments): its live count and, while it fills, its progress (asked again every
// few seconds until filled), its definition changed by owners and admins (a change fills it anew), its
// members a page at a time, and its deletion, confirmed on the page.
import { useCallback, useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { ConfirmStep } from '../ui/confirm-step';
import { Page, Section } from '../ui/page';
import { Alert, Empty, Loaded } from '../ui/state';
import { Time } from '../ui/time';
import { useChangeRight } from '../viewer';
import { countOf, FillProgress, usePollWhile } from './segments/fill';
import { Members } from './segments/members';
import { SegmentDraft, SegmentForm } from './segments/segment-form';
import './segments/segments.css';

const SEGMENT = graphql(`
  query Segment($id: ID!) {
    segment(id: $id) {
      id
      name
      definition
      count
      filling
      fill {
        done
        total
        startedAt
      }
      createdAt
      updatedAt
    }
  }
`);

const UPDATE = graphql(`
  mutation UpdateSegment($id: ID!, $input: UpdateSegmentInput!) {
    updateSegment(id: $id, input: $input) {
      id
      name
      definition
      count
      filling
    }
  }
`);

const DELETE = graphql(`
  mutation DeleteSegment($id: ID!) {
    deleteSegment(id: $id)
  }
`);

type Segment = NonNullable<ResultOf<typeof SEGMENT>['segment']>;

function Facts({ segment }: { segment: Segment }) {
  return (
    <dl className="facts">
      <dt>People</dt>
      <dd>
        <span role="status" aria-label="Live count">
          {countOf(segment.count)}
        </span>
      </dd>
      <dt>Filling</dt>
      <dd>
        <FillProgress filling={segment.filling} fill={segment.fill ?? null} name={segment.name} />
      </dd>
      <dt>Created</dt>
      <dd>
        <Time value={segment.createdAt} />
      </dd>
      <dt>Changed</dt>
      <dd>
        <Time value={segment.updatedAt} />
      </dd>
      <dt>Id</dt>
      <dd>
        <code>{segment.id}</code>
      </dd>
    </dl>
  );
}

function Change({ segment }: { segment: Segment }) {
  const [result, update] = useMutation(UPDATE);
  const submit = async ({ name, definition }: SegmentDraft) => {
    const answer = await update({ id: segment.id, input: { name, definition } });
    return !answer.error;
  };
  return (
    <Section title="Definition">
      <SegmentForm
        key={segment.updatedAt}
        initial={{ name: segment.name, definition: segment.definition }}
        submitLabel="Save segment"
        fetching={result.fetching}
        refused={refusalOf(result.error)}
        onSubmit={submit}
      />
    </Section>
  );
}

function Delete({ segment }: { segment: Segment }) {
  const right = useChangeRight();
  const [result, remove] = useMutation(DELETE);
  const [, navigate] = useLocation();
  const confirm = async () => {
    const answer = await remove({ id: segment.id });
    if (!answer.error) navigate('/segments');
  };
  return (
    <>
      <ConfirmStep
        action="Delete segment"
        question={`Delete ${segment.name}? Its memberships go with it, and this cannot be undone.`}
        disabled={!right.allowed}
        onConfirm={() => void confirm()}
      />
      <Alert refused={refusalOf(result.error)} />
    </>
  );
}

export function SegmentPage({ id }: { id: string }) {
  const [result, reexecute] = useQuery({
    query: SEGMENT,
    variables: { id },
    context: useMemo(() => ({ additionalTypenames: ['Segment'] }), []),
  });
  const segment = result.data?.segment;
  usePollWhile(
    segment?.filling ?? false,
    useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]),
  );
  return (
    <Loaded result={result} what="Loading the segment">
      {(data) =>
        data.segment ? (
          <Page title={data.segment.name} actions={<Delete segment={data.segment} />}>
            <Facts segment={data.segment} />
            <Change segment={data.segment} />
            <Members id={data.segment.id} name={data.segment.name} key={String(data.segment.filling)} />
          </Page>
        ) : (
          <Page title="No such segment">
            <Empty>
              This workspace has no segment {id}; it may have been deleted.{' '}
              <Link href="/segments">See the segments</Link>.
            </Empty>
          </Page>
        )
      }
    </Loaded>
  );
}
