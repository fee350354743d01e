// Identity keys, and how two people become one: an item's email, anon_id and account_id name one
// person, so keys that named two join them (docs/rest.md#events).
import type { IdentifyStatus } from '@app/wire';
import type { Stage } from './stage-ladder';
import { addToRevenue } from './activity';

export type IdentityKind = 'email' | 'anon_id' | 'account_id';

export interface IdentityKey {
  kind: IdentityKind;
  value: string;
}

/** The longest anon_id or account_id accepted (after trimming). */
export const MAX_ID_LENGTH = 200;
/** RFC 5321's practical limit on a whole address. */
export const MAX_EMAIL_LENGTH = 254;

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

// Practical, not RFC 5322: one @, no spaces or quoting, dotted domain with a TLD of 2+ letters.
const LOCAL = /^[^\s@<>()[\]\\,;:"]{1,64}$/;
const LABEL = /^[^\s@<>()[\]\\,;:"._-](?:[^\s@<>()[\]\\,;:"._]*[^\s@<>()[\]\\,;:"._-])?$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59}|[^\x00-\x7f]{2,63})$/i;

export function isEmail(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH) return false;
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  if (!LOCAL.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  if (labels.length < 2 || !labels.every((l) => l.length <= 63 && LABEL.test(l))) return false;
  return TLD.test(labels[labels.length - 1]);
}

export function keyString(key: { kind: string; value: string }): string {
  return `${key.kind}:${key.value}`;
}

/**
 * The identity keys a post names, normalized (email trimmed and lower-cased, ids trimmed), without
 * empty values or repeats. Formats and lengths are checked by the parsers before, which refuse them.
 */
export function identityKeys(input: {
  email?: string | null;
  anon_id?: string | null;
  account_id?: string | null;
}): IdentityKey[] {
  const keys: IdentityKey[] = [];
  const add = (kind: IdentityKind, value: string) => {
    if (value !== '' && !keys.some((k) => k.kind === kind && k.value === value)) keys.push({ kind, value });
  };
  if (input.email) add('email', normalizeEmail(input.email));
  if (input.anon_id) add('anon_id', input.anon_id.trim());
  if (input.account_id) add('account_id', input.account_id.trim());
  return keys;
}

export interface PersonSnapshot {
  id: string;
  createdAt: Date;
  stage: Stage | null;
  stageChangedAt: Date | null;
  /** A FirstTouch as stored (jsonb), hence the wider type. */
  firstTouch: Record<string, unknown> | null;
  firstTouchAt: Date | null;
  purchases: number;
  engagedAt: Date | null;
  name: string | null;
  email: string | null;
  os?: string | null;
  fields?: Record<string, string | number>;
  /** What they paid, as numeric text (domain/activity.ts). */
  revenue?: string;
  lastSeenAt?: Date | null;
}

/** The survivor's values after a merge: a snapshot's values, every one decided. */
export type MergedPerson = Omit<PersonSnapshot, 'id' | 'createdAt'> &
  Required<Pick<PersonSnapshot, 'os' | 'fields' | 'revenue' | 'lastSeenAt'>>;

export interface MergePlan extends MergedPerson {
  survivorId: string;
  absorbedIds: string[];
}

/** Oldest first: createdAt, then id, so every process picks the same survivor. */
function byAge(a: PersonSnapshot, b: PersonSnapshot): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The first of ordered people whose `when` is earliest (or latest); ties keep the older person. */
function pickBy(
  ordered: PersonSnapshot[],
  when: (p: PersonSnapshot) => number,
  latest: boolean,
): PersonSnapshot | undefined {
  let best: PersonSnapshot | undefined;
  for (const p of ordered) {
    if (!best || (latest ? when(p) > when(best) : when(p) < when(best))) best = p;
  }
  return best;
}

/**
 * People named by one post become the oldest of them. The earliest first touch wins; the stage of
 * the one whose last stage change is latest wins; purchases and revenue add up; the latest last seen and
 * the earliest engagement stay; name, email and os are the survivor's unless null (then the next
 * oldest's); fields of older people win on the same key. Given one person, the plan absorbs nobody.
 */
export function planMerge(people: PersonSnapshot[]): MergePlan {
  if (people.length === 0) throw new Error('planMerge needs at least one person');
  const ordered = [...people].sort(byAge);
  // A missing time is read as the person's creation, so a stage or touch without one still competes.
  const touched = pickBy(
    ordered.filter((p) => p.firstTouch),
    (p) => (p.firstTouchAt ?? p.createdAt).getTime(),
    false,
  );
  const staged = pickBy(
    ordered.filter((p) => p.stage),
    (p) => (p.stageChangedAt ?? p.createdAt).getTime(),
    true,
  );
  const engaged = pickBy(
    ordered.filter((p) => p.engagedAt),
    (p) => p.engagedAt!.getTime(),
    false,
  );
  const first = <T>(value: (p: PersonSnapshot) => T | null | undefined): T | null =>
    ordered.map(value).find((v): v is T => v !== null && v !== undefined) ?? null;
  const merged: MergedPerson = {
    stage: staged?.stage ?? null,
    stageChangedAt: staged?.stageChangedAt ?? null,
    firstTouch: touched?.firstTouch ?? null,
    firstTouchAt: touched?.firstTouchAt ?? null,
    purchases: people.reduce((sum, p) => sum + p.purchases, 0),
    engagedAt: engaged?.engagedAt ?? null,
    name: first((p) => p.name),
    email: first((p) => p.email),
    os: first((p) => p.os),
    fields: Object.assign({}, ...[...ordered].reverse().map((p) => p.fields ?? {})),
    revenue: people.reduce((sum, p) => addToRevenue(sum, Number(p.revenue ?? 0)), '0'),
    lastSeenAt:
      pickBy(
        ordered.filter((p) => p.lastSeenAt),
        (p) => p.lastSeenAt!.getTime(),
        true,
      )?.lastSeenAt ?? null,
  };
  return { survivorId: ordered[0].id, absorbedIds: ordered.slice(1).map((p) => p.id), ...merged };
}

/**
 * Created when no key named anybody yet, merged when the keys named two or
 * more people, linked when they named one (keys added to it, or already all on it).
 */
export function identifyStatus(peopleFound: number): IdentifyStatus {
  if (peopleFound <= 0) return 'created';
  return peopleFound === 1 ? 'linked' : 'merged';
}
