// A person's first touch, from the source field of docs/rest.md#events (docs/graphql.md#people shows it).
import { createHash } from 'node:crypto';
import { Refusal } from '@app/platform';
import { WireSource } from '@app/wire';
import { MAX_ID_LENGTH } from './identity';

/** A parsed source object: its wire shape (the wire module is shared with the client package). */
export type SourceInput = WireSource;

// A type alias rather than an interface, so a FirstTouch is storable as a plain JSON record.
export type FirstTouch = {
  source: string;
  medium: string | null;
  campaign: string | null;
  referrer: string | null;
  path: string | null;
  click_id: string | null;
};

/** Longest kept source string; longer ones are cut, since arrival data is a hint, not a record. */
export const SOURCE_TEXT_MAX = 500;
// A referrer is read whole before it is reduced to its host, so a long address still yields one.
const REFERRER_READ_MAX = 4096;
const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export const PERSON_OS = ['win', 'mac', 'linux', 'other'] as const;
export type PersonOs = (typeof PERSON_OS)[number];

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A trimmed string, undefined when absent or blank, or a Refusal naming the field. */
function text(value: unknown, field: string, max: number): string | undefined | Refusal {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    return new Refusal('invalid_field', `${field} must be a string: send it as text or leave it out.`);
  const trimmed = value.trim().slice(0, max);
  return trimmed === '' ? undefined : trimmed;
}

/**
 * The source object of a post. Unknown keys are dropped, strings trimmed and cut to SOURCE_TEXT_MAX,
 * the referrer reduced to its host; a known key of the wrong type is refused with invalid_field
 * naming it. Undefined when the post carries no source data.
 */
export function parseSource(raw: unknown): SourceInput | undefined | Refusal {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) return new Refusal('invalid_field', 'source must be an object, like {"path": "/pricing"}.');
  const out: SourceInput = {};
  for (const field of ['path', 'os', 'click_id'] as const) {
    const value = text(raw[field], `source.${field}`, SOURCE_TEXT_MAX);
    if (value instanceof Refusal) return value;
    if (value !== undefined) out[field] = value;
  }
  const referrer = text(raw.referrer, 'source.referrer', REFERRER_READ_MAX);
  if (referrer instanceof Refusal) return referrer;
  const host = referrer === undefined ? null : referrerHost(referrer);
  if (host) out.referrer = host.slice(0, SOURCE_TEXT_MAX);
  // anon_id names a person, so it is refused rather than cut: a cut id would name someone else.
  const anonId = text(raw.anon_id, 'source.anon_id', Number.POSITIVE_INFINITY);
  if (anonId instanceof Refusal) return anonId;
  if (anonId !== undefined && anonId.length > MAX_ID_LENGTH) {
    return new Refusal(
      'invalid_field',
      `source.anon_id must be at most ${MAX_ID_LENGTH} characters: send the tag's browser id.`,
    );
  }
  if (anonId !== undefined) out.anon_id = anonId;
  const utm = parseUtm(raw.utm);
  if (utm instanceof Refusal) return utm;
  if (utm) out.utm = utm;
  return Object.keys(out).length ? out : undefined;
}

function parseUtm(raw: unknown): SourceInput['utm'] | Refusal {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw))
    return new Refusal('invalid_field', 'source.utm must be an object, like {"source": "newsletter"}.');
  const utm: NonNullable<SourceInput['utm']> = {};
  for (const key of UTM_KEYS) {
    const value = text(raw[key], `source.utm.${key}`, SOURCE_TEXT_MAX);
    if (value instanceof Refusal) return value;
    if (value !== undefined) utm[key] = value;
  }
  return Object.keys(utm).length ? utm : undefined;
}

/**
 * A host, or a whole address reduced to its host: lower-case, without port, credentials, path or a
 * trailing dot, so localhost:3000 and https://localhost/x count as one source. null when no host.
 */
export function referrerHost(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed.replace(/^\/\//, '')}`;
  try {
    const host = new URL(withScheme).hostname.toLowerCase().replace(/\.$/, '');
    return host || null;
  } catch {
    return null;
  }
}

/** Only win, mac, linux and other become a field on the person (case-insensitive); anything else is null. */
export function personOs(os: unknown): PersonOs | null {
  if (typeof os !== 'string') return null;
  const value = os.trim().toLowerCase();
  return (PERSON_OS as readonly string[]).includes(value) ? (value as PersonOs) : null;
}

/**
 * The first touch a post would set: source = utm.source, else the referrer host, else direct;
 * medium = utm.medium; campaign = utm.campaign. null when the post carries no arrival data: os and
 * anon_id alone say who and on what, not where from.
 */
export function firstTouchFrom(source: SourceInput | undefined | null): FirstTouch | null {
  if (!source) return null;
  const { utm, referrer, path, click_id } = source;
  if (!utm && !referrer && !path && !click_id) return null;
  return {
    source: utm?.source ?? referrer ?? 'direct',
    medium: utm?.medium ?? null,
    campaign: utm?.campaign ?? null,
    referrer: referrer ?? null,
    path: path ?? null,
    click_id: click_id ?? null,
  };
}

/** What a chart breaks down by: a first touch's source, medium and campaign ('' for a field it lacks). */
export type TouchParts = { source: string; medium: string; campaign: string };

/** A first touch's chart fields; all '' when there is none (the series (none) of every breakdown). */
export function touchParts(firstTouch: Record<string, unknown> | null | undefined): TouchParts {
  const field = (name: string) => (typeof firstTouch?.[name] === 'string' ? (firstTouch[name] as string) : '');
  return { source: field('source'), medium: field('medium'), campaign: field('campaign') };
}

/**
 * A first touch's chart key (docs/decisions.md#charts-from-rollups): the first 64 bits of the MD5 of
 * source, medium and campaign joined by U+001F, as a signed bigint in decimal; '0' when there is no
 * first touch. touchKeySql (people-read.repository.ts) computes the same in the database.
 */
export function touchKey(parts: TouchParts): string {
  if (!parts.source && !parts.medium && !parts.campaign) return '0';
  const hex = createHash('md5')
    .update(`${parts.source}\u001f${parts.medium}\u001f${parts.campaign}`)
    .digest('hex')
    .slice(0, 16);
  return BigInt.asIntN(64, BigInt(`0x${hex}`)).toString();
}
