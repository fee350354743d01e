// Home (docs/console.md#home): how the workspace is doing, in one GraphQL request: people by stage, new
// people and events today against yesterday at the same time, the engaged, the last hour's posts, webhook
// addresses by health and automations with failed runs; each figure links to the page behind it.
import { useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from 'urql';
import { graphql, ResultOf } from '../graphql';
import { Page } from '../ui/page';
import { Loaded } from '../ui/state';
import { STAGES, stageName } from '../ui/stage';
import { changeInWords, failedRuns, HEALTH_GROUPS, healthOf, postsByAnswer, RUNS_READ } from './home/figures';
import './home/home.css';

const HOME = graphql(`
  query Home($hourAgo: DateTime!, $runs: Int!) {
    workspaceOverview {
      stages {
        stage
        people
      }
      engaged
      newPeople {
        today
        yesterday
      }
      events {
        today
        yesterday
      }
    }
    heartbeat(since: $hourAgo) {
      answer
      count
    }
    webhookEndpoints {
      id
      url
      disabledAt
      successRate
    }
    automations {
      id
      number
      name
      runs(first: $runs) {
        status
      }
    }
  }
`);

type Home = ResultOf<typeof HOME>;
const NUMBER = new Intl.NumberFormat();

function Card({ title, children, wide }: { title: string; children: React.ReactNode; wide?: boolean }) {
  const id = `home-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className={`home-card${wide ? ' home-stages' : ''}`} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function Stages({ stages }: { stages: Home['workspaceOverview']['stages'] }) {
  const of = new Map(stages.map((s) => [s.stage, s.people]));
  const none: [string | null, string][] = of.get(null) ? [[null, stageName(null)]] : [];
  const rows: [string | null, string][] = [...STAGES, ...none];
  const most = Math.max(1, ...stages.map((s) => s.people));
  return (
    <ul className="stage-bars">
      {rows.map(([stage, name]) => {
        const people = of.get(stage) ?? 0;
        return (
          <li key={stage ?? 'none'}>
            <Link href={stage ? `/people?stage=${stage}` : '/people'}>{name}</Link>
            <span className="bar" aria-hidden="true">
              <span style={{ width: `${(people / most) * 100}%` }} />
            </span>
            <span className="count">{NUMBER.format(people)}</span>
          </li>
        );
      })}
    </ul>
  );
}

function Today({ href, figure, what }: { href: string; figure: { today: number; yesterday: number }; what: string }) {
  return (
    <>
      <span className="figure">
        <Link href={href}>
          {NUMBER.format(figure.today)} {what} today
        </Link>
      </span>
      <span className="against">
        {NUMBER.format(figure.yesterday)} by this time yesterday ({changeInWords(figure.today, figure.yesterday)})
      </span>
    </>
  );
}

function Posts({ rows }: { rows: Home['heartbeat'] }) {
  const answers = postsByAnswer(rows);
  const total = answers.reduce((sum, [, n]) => sum + n, 0);
  return (
    <>
      <span className="figure">
        <Link href="/settings?range=hour#section-heartbeat">{NUMBER.format(total)} posts in the last hour</Link>
      </span>
      <ul aria-label="Posts by answer">
        {answers.map(([answer, n]) => (
          <li key={answer}>
            {answer}: {NUMBER.format(n)}
          </li>
        ))}
      </ul>
    </>
  );
}

function Webhooks({ endpoints }: { endpoints: Home['webhookEndpoints'] }) {
  if (endpoints.length === 0) return <Link href="/webhooks">No webhook addresses yet: add one</Link>;
  return (
    <ul aria-label="Addresses by health">
      {HEALTH_GROUPS.map(([health, words]) => {
        const these = endpoints.filter((e) => healthOf(e) === health);
        if (these.length === 0) return null;
        return (
          <li key={health}>
            <Link href={these.length === 1 ? `/webhooks/${these[0].id}` : '/webhooks'}>
              {words}: {these.length}
            </Link>
            {health === 'failing' || health === 'disabled' ? (
              <ul>
                {these.map((e) => (
                  <li key={e.id}>
                    <Link href={`/webhooks/${e.id}`}>{e.url}</Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

function Automations({ automations }: { automations: Home['automations'] }) {
  const failing = automations.map((a) => ({ ...a, failed: failedRuns(a.runs) })).filter((a) => a.failed > 0);
  if (failing.length === 0)
    return (
      <Link href="/automations">
        {automations.length === 0 ? 'No automations yet' : `No failed runs among the latest ${RUNS_READ} of each`}
      </Link>
    );
  return (
    <ul aria-label="Automations with failed runs">
      {failing.map((a) => (
        <li key={a.id}>
          <Link href={`/automations/${a.id}`}>
            #{a.number} {a.name}: {a.failed} failed of the latest {Math.min(a.runs.length, RUNS_READ)} runs
          </Link>
        </li>
      ))}
    </ul>
  );
}

function Figures({ data }: { data: Home }) {
  const overview = data.workspaceOverview;
  return (
    <div className="home-grid">
      <Card title="People by stage" wide>
        <Stages stages={overview.stages} />
      </Card>
      <Card title="New people">
        <Today href="/people" figure={overview.newPeople} what="new" />
      </Card>
      <Card title="Events">
        <Today href="/live" figure={overview.events} what="events" />
      </Card>
      <Card title="Engaged people">
        <span className="figure">
          <Link href="/people?engaged=yes">{NUMBER.format(overview.engaged)} engaged</Link>
        </span>
        <span className="against">bought, signed up, wrote in, replied or joined a list</span>
      </Card>
      <Card title="Posts in the last hour">
        <Posts rows={data.heartbeat} />
      </Card>
      <Card title="Webhook addresses">
        <Webhooks endpoints={data.webhookEndpoints} />
      </Card>
      <Card title="Automations with failures">
        <Automations automations={data.automations} />
      </Card>
    </div>
  );
}

export function HomePage() {
  // Asked once per visit: a new hour each render would be a new question, and a new request.
  const [hourAgo] = useState(() => new Date(Date.now() - 3_600_000).toISOString());
  const [result] = useQuery({ query: HOME, variables: { hourAgo, runs: RUNS_READ } });
  return (
    <Page title="Home">
      <Loaded result={result} what="Counting">
        {(data) => <Figures data={data} />}
      </Loaded>
    </Page>
  );
}
