// interface.md rule 3 and decisions.md section 4: identity keys, and how two people become one.
import type { Stage } from './stage-ladder';

export type IdentityKind = 'email' | 'anon_id' | 'account_id';

export interface IdentityKey {
  kind: IdentityKind;
  value: string;
}

export const MAX_ID_LENGTH = 200;

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

export function isEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]{2,}$/.test(value);
}

export function keyString(key: IdentityKey): string {
  return `${key.kind}:${key.value}`;
}

/** Identity keys of a post, deduplicated; values are assumed already validated. */
export function identityKeys(input: { email?: string | null; anon_id?: string | null; account_id?: string | null }): IdentityKey[] {
  const keys: IdentityKey[] = [];
  if (input.email) keys.push({ kind: 'email', value: normalizeEmail(input.email) });
  if (input.anon_id) keys.push({ kind: 'anon_id', value: input.anon_id.trim() });
  if (input.account_id) keys.push({ kind: 'account_id', value: input.account_id.trim() });
  return keys.filter((k, i) => k.value !== '' && keys.findIndex((o) => keyString(o) === keyString(k)) === i);
}

export interface PersonSnapshot {
  id: string;
  createdAt: Date;
  stage: Stage | null;
  stageChangedAt: Date | null;
  firstTouch: Record<string, unknown> | null;
  firstTouchAt: Date | null;
  purchases: number;
  engagedAt: Date | null;
  name: string | null;
  email: string | null;
  os: string | null;
  fields: Record<string, string | number>;
}

export interface MergePlan {
  survivorId: string;
  absorbedIds: string[];
  merged: Omit<PersonSnapshot, 'id' | 'createdAt'>;
}

const time = (d: Date | null) => (d ? d.getTime() : Number.NEGATIVE_INFINITY);

/**
 * Two or more people named by one post become the oldest of them; the earliest first touch wins;
 * the stage of the one whose last stage change is latest wins; purchases add up.
 */
export function planMerge(people: PersonSnapshot[]): MergePlan {
  if (people.length < 2) throw new Error('planMerge needs two people or more');
  const byAge = [...people].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  const survivor = byAge[0];
  const withTouch = people.filter((p) => p.firstTouch).sort((a, b) => time(a.firstTouchAt) - time(b.firstTouchAt));
  const withStage = people.filter((p) => p.stage).sort((a, b) => time(b.stageChangedAt) - time(a.stageChangedAt));
  const engaged = people.map((p) => p.engagedAt).filter((d): d is Date => !!d).sort((a, b) => a.getTime() - b.getTime());
  const pick = <K extends keyof PersonSnapshot>(field: K) => byAge.map((p) => p[field]).find((v) => v !== null && v !== undefined) ?? null;
  return {
    survivorId: survivor.id,
    absorbedIds: byAge.slice(1).map((p) => p.id),
    merged: {
      stage: withStage[0]?.stage ?? null,
      stageChangedAt: withStage[0]?.stageChangedAt ?? null,
      firstTouch: withTouch[0]?.firstTouch ?? null,
      firstTouchAt: withTouch[0]?.firstTouchAt ?? null,
      purchases: people.reduce((sum, p) => sum + p.purchases, 0),
      engagedAt: engaged[0] ?? null,
      name: pick('name') as string | null,
      email: pick('email') as string | null,
      os: pick('os') as string | null,
      // Older people's fields win over newer ones' on the same key.
      fields: Object.assign({}, ...[...byAge].reverse().map((p) => p.fields)),
    },
  };
}

export type IdentifyStatus = 'created' | 'merged' | 'linked';
