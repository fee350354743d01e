// A person at a glance, beside their timeline: stage, value (what they paid), last seen and first touch, then
// whether email may go to them, purchases, first seen, operating system and record id. Nothing unknown is
// printed as "null": it reads "not yet" or "not recorded".
import { FragmentOf, graphql, readFragment } from '../../graphql';
import { stageName } from '../../ui/stage';
import { money } from './timeline-row';
import { When } from '../../ui/time';

export const PERSON_SUMMARY = graphql(`
  fragment PersonSummary on Person {
    id
    stage
    engaged
    os
    purchases
    createdAt
    firstTouch
    lastSeenAt
    revenue
  }
`);

export function Summary({ person: data }: { person: FragmentOf<typeof PERSON_SUMMARY> }) {
  const person = readFragment(PERSON_SUMMARY, data);
  return (
    <section className="person-summary" aria-labelledby="summary-title">
      <h2 id="summary-title">Summary</h2>
      <dl className="facts summary-facts">
        <dt>Stage</dt>
        <dd>{stageName(person.stage)}</dd>
        <dt>Value</dt>
        <dd>{person.revenue ? money(person.revenue) : <span className="muted">nothing paid yet</span>}</dd>
        <dt>Last seen</dt>
        <dd>
          <When value={person.lastSeenAt} none="not yet" />
        </dd>
        <dt>First touch</dt>
        <dd>
          <FirstTouch touch={person.firstTouch} />
        </dd>
        <dt>Email</dt>
        <dd>{person.engaged ? 'May be sent' : 'Refused until they sign up, buy or write in'}</dd>
        <dt>Purchases</dt>
        <dd>{person.purchases}</dd>
        <dt>First seen</dt>
        <dd>
          <When value={person.createdAt} />
        </dd>
        <dt>Operating system</dt>
        <dd>{person.os ?? <span className="muted">unknown</span>}</dd>
        <dt>Record id</dt>
        <dd>
          <code>{person.id}</code>
        </dd>
      </dl>
    </section>
  );
}

const TOUCH_WORDS: Array<[key: string, before: string]> = [
  ['campaign', 'campaign '],
  ['referrer', 'from '],
  ['path', 'landed on '],
  ['click_id', 'ad click '],
];

/** Where the person first came from, as a sentence of what is known: "newsletter / email · landed on /pricing". */
function FirstTouch({ touch }: { touch: unknown }) {
  const t = touch && typeof touch === 'object' ? (touch as Record<string, unknown>) : {};
  const said = (key: string) => (typeof t[key] === 'string' && t[key] ? (t[key] as string) : null);
  const origin = [said('source'), said('medium')].filter(Boolean).join(' / ');
  const parts = [origin, ...TOUCH_WORDS.map(([key, before]) => (said(key) ? `${before}${said(key)}` : ''))].filter(
    Boolean,
  );
  if (parts.length === 0) return <span className="muted">not recorded</span>;
  return <span className="first-touch">{parts.join(' · ')}</span>;
}
