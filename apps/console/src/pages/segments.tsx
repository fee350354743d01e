// Segments (docs/graphql.md#segments): live groups of people by a definition (stage, list, field, event,
// engaged, first touch), each with its count kept as people change and, while it fills, its progress,
// asked again every few seconds until every segment is filled. Owners and admins create them here.
import { useCallback, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { Checkbox } from '../ui/checkbox';
import { Page, Section } from '../ui/page';
import { Empty, Loaded } from '../ui/state';
import { Time } from '../ui/time';
import { FillProgress, usePollWhile } from './segments/fill';
import { SegmentDraft, SegmentForm } from './segments/segment-form';
import './segments/segments.css';

const SEGMENTS = graphql(`
  query Segments {
    segments {
      id
      name
      count
      filling
      fill {
        done
        total
        startedAt
      }
      updatedAt
    }
  }
`);

const CREATE = graphql(`
  mutation CreateSegment($input: CreateSegmentInput!) {
    createSegment(input: $input) {
      id
      name
      definition
      count
      filling
    }
  }
`);

type Segment = ResultOf<typeof SEGMENTS>['segments'][number];

const NUMBER = new Intl.NumberFormat('en');

function SegmentTable({ segments }: { segments: readonly Segment[] }) {
  if (segments.length === 0)
    return <Empty>No segments yet: define the first one below; its count then follows people as they change.</Empty>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" className="number">
            People
          </th>
          <th scope="col">Filling</th>
          <th scope="col">Changed</th>
        </tr>
      </thead>
      <tbody>
        {segments.map((segment) => (
          <tr key={segment.id}>
            <td>
              <Link href={`/segments/${encodeURIComponent(segment.id)}`}>{segment.name}</Link>
            </td>
            <td className="number">{NUMBER.format(segment.count)}</td>
            <td>
              <FillProgress filling={segment.filling} fill={segment.fill ?? null} name={segment.name} />
            </td>
            <td>
              <Time value={segment.updatedAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const ANNOUNCE_HINT =
  'Each person the first fill finds fires segment_entered (automations and webhooks hear it); ' +
  'unticked, only those who enter later do.';

function NewSegment() {
  const [result, create] = useMutation(CREATE);
  const [announceFill, setAnnounceFill] = useState(false);
  const [, navigate] = useLocation();
  const submit = async ({ name, definition }: SegmentDraft) => {
    const answer = await create({ input: { name, definition, announceFill } });
    if (answer.error || !answer.data) return false;
    navigate(`/segments/${encodeURIComponent(answer.data.createSegment.id)}`);
    return true;
  };
  return (
    <Section title="New segment">
      <SegmentForm
        submitLabel="Create segment"
        fetching={result.fetching}
        refused={refusalOf(result.error)}
        onSubmit={submit}
      >
        <Checkbox
          label="Announce the people found while it fills"
          hint={ANNOUNCE_HINT}
          checked={announceFill}
          onChange={(e) => setAnnounceFill(e.target.checked)}
        />
      </SegmentForm>
    </Section>
  );
}

export function SegmentsPage() {
  const [result, reexecute] = useQuery({
    query: SEGMENTS,
    context: useMemo(() => ({ additionalTypenames: ['Segment'] }), []),
  });
  const filling = result.data?.segments.some((s) => s.filling) ?? false;
  usePollWhile(
    filling,
    useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]),
  );
  return (
    <Page title="Segments">
      <Loaded result={result} what="Loading segments">
        {(data) => <SegmentTable segments={data.segments} />}
      </Loaded>
      <NewSegment />
    </Page>
  );
}
