// One row of a person's timeline, drawn as what it is: a pageview by its path and referrer, a purchase by
// its value, a support message by its words and topic, an email by its subject and status, a stage change
// as from → to, a merge, a note; the rest of its properties as key and value (docs/console.md#a-persons-page).
import { ReactNode } from 'react';
import { stageName } from '../../ui/stage';
import { KeyValues } from './key-values';
import { When } from '../../ui/time';

interface TimelineEntry {
  id: string;
  type: string;
  occurredAt: string;
  value?: number | null;
  detail?: string | null;
  properties?: unknown;
  source?: unknown;
  email?: { subject: string; status?: string | null; direction: string } | null;
}

type Facts = Record<string, unknown>;
const factsOf = (value: unknown): Facts =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Facts) : {};
const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : null;

/** What a row shows: its kind's name, its headline, a longer text, and the facts left for key and value. */
interface Drawn {
  kind: string;
  headline?: ReactNode;
  body?: ReactNode;
  /** Property keys the headline and body already show. */
  shown?: string[];
  /** The row's source facts, for the kinds that arrive from a page. */
  source?: boolean;
}

const VISITS = new Set(['pageview', 'configure', 'cta_click', 'waitlist_cta', 'measure_cta', 'download']);
const MONEY = new Set(['purchase', 'credit_purchase', 'subscription_renewed', 'refund', 'checkout_abandoned']);
const NAMES: Record<string, string> = {
  pageview: 'Pageview',
  configure: 'Demo used',
  cta_click: 'Link clicked',
  waitlist_cta: 'Waitlist click',
  measure_cta: 'Call to action',
  download: 'Download',
  activated: 'Activated',
  signup: 'Sign-up',
  trial_started: 'Trial started',
  purchase: 'Purchase',
  credit_purchase: 'Credit purchase',
  churned: 'Churned',
  subscription_cancelled: 'Subscription cancelled',
  subscription_started: 'Subscription started',
  subscription_renewed: 'Renewal',
  refund: 'Refund',
  checkout_abandoned: 'Checkout abandoned',
  sign_in: 'Sign-in',
  account_deleted: 'Account deleted',
  github_star: 'Star',
  support: 'Support message',
  email_sent: 'Email sent',
  email_received: 'Email received',
  stage_changed: 'Stage change',
  merged: 'Merge',
  note: 'Note',
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
};

/** A kind's name as people read it; a custom event's own name. */
export function kindName(type: string): string {
  return NAMES[type] ?? type;
}

/** An amount in the row's currency when it names one, else as a number. */
export function money(value: number, currency?: string | null): string {
  if (currency && /^[a-z]{3}$/i.test(currency)) {
    try {
      return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(value);
    } catch {
      // A code Intl does not know: the number with the code beside it.
    }
  }
  return `${new Intl.NumberFormat().format(value)}${currency ? ` ${currency}` : ''}`;
}

function draw(entry: TimelineEntry, p: Facts): Drawn {
  const kind = kindName(entry.type);
  if (VISITS.has(entry.type)) {
    const s = factsOf(entry.source);
    const path = textOf(s.path) ?? textOf(p.path) ?? entry.detail;
    const referrer = textOf(s.referrer) ?? textOf(p.referrer);
    return {
      kind,
      headline: (
        <>
          {path ? <span className="path">{path}</span> : null}
          {referrer ? <span className="muted"> from {referrer}</span> : null}
        </>
      ),
      shown: ['path', 'referrer'],
      source: true,
    };
  }
  if (MONEY.has(entry.type) && typeof entry.value === 'number')
    return {
      kind,
      headline: <span className="amount">{money(entry.value, textOf(p.currency))}</span>,
      shown: ['currency'],
    };
  switch (entry.type) {
    case 'support':
      return {
        kind,
        headline: textOf(p.topic) ? <span className="badge">Topic: {textOf(p.topic)}</span> : null,
        body: <blockquote className="words">{textOf(p.message) ?? entry.detail}</blockquote>,
        shown: ['message', 'topic'],
        source: true,
      };
    case 'email_sent':
    case 'email_received':
      return {
        kind,
        headline: (
          <>
            <span className="subject">{entry.email?.subject ?? entry.detail ?? '(no subject)'}</span>{' '}
            <span className="badge">{entry.email?.status ?? (entry.type === 'email_sent' ? 'sent' : 'received')}</span>
          </>
        ),
      };
    case 'stage_changed':
      return {
        kind,
        headline: (
          <span className="stage-move">
            {p.from ? stageName(textOf(p.from)) : 'No stage'} → {stageName(textOf(p.to) ?? entry.detail)}
          </span>
        ),
        body: textOf(p.event) ? <span className="muted">on {kindName(textOf(p.event)!)}</span> : null,
        shown: ['from', 'to', 'event'],
      };
    case 'merged':
      return { kind, headline: merged(p.absorbed), shown: ['absorbed'] };
    case 'note':
      return {
        kind,
        body: <p className="words">{entry.detail}</p>,
        headline: textOf(p.author) ? <span className="muted">by {textOf(p.author)}</span> : null,
        shown: ['author'],
      };
    case 'subscribed':
    case 'unsubscribed':
      return { kind, headline: listOf(entry, p), shown: ['list', 'via'] };
  }
  return { kind, headline: entry.detail, source: true };
}

function merged(absorbed: unknown) {
  const ids = Array.isArray(absorbed) ? absorbed.map(String) : [];
  return (
    <span>
      Joined with {ids.length === 1 ? 'another record' : `${ids.length} other records`}:{' '}
      {ids.map((id, n) => (
        <span key={id}>
          {n ? ', ' : null}
          <code>{id}</code>
        </span>
      ))}
    </span>
  );
}

function listOf(entry: TimelineEntry, p: Facts) {
  const list = factsOf(p.list);
  const name = textOf(list.name) ?? entry.detail ?? textOf(list.address) ?? textOf(p.list);
  const via = textOf(p.via);
  return (
    <span>
      {entry.type === 'subscribed' ? 'to ' : 'from '}
      <strong>{name}</strong>
      {via ? <span className="muted"> via {via}</span> : null}
    </span>
  );
}

export function TimelineRow({ entry }: { entry: TimelineEntry }) {
  const p = factsOf(entry.properties);
  const drawn = draw(entry, p);
  const valueShown = MONEY.has(entry.type);
  return (
    <li className={`entry entry-${entry.type}`} data-type={entry.type}>
      <div className="entry-head">
        <span className="kind">{drawn.kind}</span>
        {drawn.headline ? <span className="headline">{drawn.headline}</span> : null}
        <When value={entry.occurredAt} />
      </div>
      {drawn.body ?? null}
      {!valueShown && typeof entry.value === 'number' ? (
        <div className="muted">Value {money(entry.value, textOf(p.currency))}</div>
      ) : null}
      <KeyValues value={p} omit={drawn.shown} />
      {drawn.source ? (
        <KeyValues
          value={factsOf(entry.source)}
          omit={VISITS.has(entry.type) ? ['path', 'referrer', 'anon_id'] : ['anon_id']}
        />
      ) : null}
    </li>
  );
}
