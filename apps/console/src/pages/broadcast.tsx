// One broadcast (docs/graphql.md#broadcasts): its state, audience and email; a draft's or a scheduled one's send
// now, schedule and test send; a sending one's progress (sent, skipped by reason, failed, opened), asked again every
// few seconds until it stops, with pause, resume and cancel by its state; its recipients a page at a time.
import { useCallback, useMemo } from 'react';
import { Link } from 'wouter';
import { useQuery } from 'urql';
import { graphql, ResultOf } from '../graphql';
import { Page, Section } from '../ui/page';
import { Empty, Loaded } from '../ui/state';
import { Time } from '../ui/time';
import { countOf, usePollWhile } from './segments/fill';
import { audienceNow, useAudiences } from './broadcasts/audience';
import { Moves } from './broadcasts/moves';
import { ProgressBar, ProgressFacts, reachedOf, StateBadge } from './broadcasts/progress';
import { Recipients } from './broadcasts/recipients';
import { TestSend } from './broadcasts/test-send';
import './broadcasts/broadcasts.css';

const BROADCAST = graphql(`
  query Broadcast($id: ID!) {
    broadcast(id: $id) {
      id
      name
      state
      list
      segment
      template
      subject
      body
      scheduledAt
      startedAt
      finishedAt
      audience
      sent
      failed
      skipped
      pending
      cancelled
      opened
      clicked
      skippedBy {
        reason
        count
      }
      createdAt
      updatedAt
    }
  }
`);

const TEMPLATE_NAMES = graphql(`
  query BroadcastTemplateNames {
    templates {
      id
      name
      subject
    }
  }
`);

type Broadcast = NonNullable<ResultOf<typeof BROADCAST>['broadcast']>;

/** A scheduled broadcast within a minute of its time is asked after too, so the page sees it start. */
const pollsFor = (b: Broadcast | null | undefined) =>
  !!b &&
  (b.state === 'sending' ||
    (b.state === 'scheduled' && !!b.scheduledAt && new Date(b.scheduledAt).getTime() - Date.now() < 60_000));

type Now = ReturnType<typeof audienceNow>;

function Facts({ broadcast, now }: { broadcast: Broadcast; now: Now }) {
  const [templates] = useQuery({ query: TEMPLATE_NAMES });
  const template = templates.data?.templates.find((t) => t.id === broadcast.template);
  const to = broadcast.list ? (
    <>
      the list {now?.name ?? ''} <code>{broadcast.list}</code>
    </>
  ) : (
    <>
      the segment{' '}
      <Link href={`/segments/${encodeURIComponent(broadcast.segment ?? '')}`}>{now?.name ?? broadcast.segment}</Link>
    </>
  );
  return (
    <dl className="facts">
      <dt>State</dt>
      <dd>
        <StateBadge state={broadcast.state} />
        {broadcast.state === 'scheduled' ? (
          <>
            {' '}
            for <Time value={broadcast.scheduledAt} />
          </>
        ) : null}
      </dd>
      <dt>To</dt>
      <dd>
        {to}
        {broadcast.audience === null && now ? <span className="muted"> · {now.words}</span> : null}
      </dd>
      <dt>Email</dt>
      <dd>
        {template ? (
          <>
            the template <Link href={`/templates/${encodeURIComponent(template.id)}`}>{template.name}</Link>
          </>
        ) : broadcast.template ? (
          <>the template {broadcast.template}</>
        ) : (
          'written for this broadcast'
        )}
      </dd>
      <dt>Subject</dt>
      <dd>{broadcast.subject ?? template?.subject ?? ''}</dd>
      <dt>Created</dt>
      <dd>
        <Time value={broadcast.createdAt} />
      </dd>
      <dt>Started</dt>
      <dd>
        <Time value={broadcast.startedAt} />
      </dd>
      <dt>Finished</dt>
      <dd>
        <Time value={broadcast.finishedAt} />
      </dd>
    </dl>
  );
}

function Body({ broadcast }: { broadcast: Broadcast }) {
  if (!broadcast.body) return null;
  return (
    <details className="body">
      <summary>Body (Markdown with Liquid)</summary>
      <pre>{broadcast.body}</pre>
    </details>
  );
}

function BroadcastView({ broadcast }: { broadcast: Broadcast }) {
  const audiences = useAudiences();
  const kind = broadcast.list ? 'list' : 'segment';
  const now = audienceNow(audiences.data, { kind, value: broadcast.list ?? broadcast.segment ?? '' });
  const startable = broadcast.state === 'draft' || broadcast.state === 'scheduled';
  const over = broadcast.state === 'sent' || broadcast.state === 'cancelled';
  const revision = `${broadcast.state}:${reachedOf(broadcast)}:${broadcast.cancelled}`;
  return (
    <Page title={broadcast.name}>
      <Facts broadcast={broadcast} now={now} />
      <Body broadcast={broadcast} />
      <Section title="Progress">
        <p className="progress-line">
          <ProgressBar broadcast={broadcast} />
        </p>
        <ProgressFacts broadcast={broadcast} />
      </Section>
      {over ? null : (
        <>
          <Section title={startable ? 'Send' : 'Sending'}>
            <Moves broadcast={broadcast} audienceNow={now ? countOf(now.count) : null} />
          </Section>
          <Section title="Test">
            <TestSend id={broadcast.id} />
          </Section>
        </>
      )}
      <Recipients id={broadcast.id} name={broadcast.name} revision={revision} />
    </Page>
  );
}

export function BroadcastPage({ id }: { id: string }) {
  const [result, reexecute] = useQuery({
    query: BROADCAST,
    variables: { id },
    context: useMemo(() => ({ additionalTypenames: ['Broadcast'] }), []),
  });
  usePollWhile(
    pollsFor(result.data?.broadcast),
    useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]),
  );
  return (
    <Loaded result={result} what="Loading the broadcast">
      {(data) =>
        data.broadcast ? (
          <BroadcastView broadcast={data.broadcast} />
        ) : (
          <Page title="No such broadcast">
            <Empty>
              This workspace has no broadcast {id}. <Link href="/broadcasts">See the broadcasts</Link>.
            </Empty>
          </Page>
        )
      }
    </Loaded>
  );
}
