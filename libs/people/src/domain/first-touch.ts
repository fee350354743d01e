// interface.md "source object" and decisions.md section 4 (first touch).
import { Refusal } from '@app/core';

export interface SourceInput {
  path?: string;
  referrer?: string;
  os?: string;
  anon_id?: string;
  utm?: { source?: string; medium?: string; campaign?: string; term?: string; content?: string };
  click_id?: string;
}

export interface FirstTouch {
  source: string;
  medium: string | null;
  campaign: string | null;
  referrer: string | null;
  path: string | null;
  click_id: string | null;
}

const MAX = 500;
const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
const OS = new Set(['win', 'mac', 'linux', 'other']);

function text(value: unknown, field: string): string | undefined | Refusal {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return new Refusal('invalid_field', `${field} must be a string.`);
  const trimmed = value.trim().slice(0, MAX);
  return trimmed === '' ? undefined : trimmed;
}

/** Unknown keys are dropped; a known key of the wrong type is refused with invalid_field. */
export function parseSource(raw: unknown): SourceInput | undefined | Refusal {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) return new Refusal('invalid_field', 'source must be an object like {"path": "/pricing"}.');
  const input = raw as Record<string, unknown>;
  const out: SourceInput = {};
  for (const field of ['path', 'referrer', 'os', 'anon_id', 'click_id'] as const) {
    const value = text(input[field], `source.${field}`);
    if (value instanceof Refusal) return value;
    if (value !== undefined) out[field] = value;
  }
  if (out.referrer) out.referrer = referrerHost(out.referrer) ?? undefined;
  if (input.utm !== undefined && input.utm !== null) {
    if (typeof input.utm !== 'object' || Array.isArray(input.utm)) return new Refusal('invalid_field', 'source.utm must be an object like {"source": "newsletter"}.');
    const utm: NonNullable<SourceInput['utm']> = {};
    for (const key of UTM_KEYS) {
      const value = text((input.utm as Record<string, unknown>)[key], `source.utm.${key}`);
      if (value instanceof Refusal) return value;
      if (value !== undefined) utm[key] = value;
    }
    if (Object.keys(utm).length) out.utm = utm;
  }
  return Object.keys(out).length ? out : undefined;
}

/** A host, or a whole address reduced to its host (lower-case, without port or www-less rewriting). */
export function referrerHost(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`);
    return url.hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** Only win, mac, linux and other become a field on the person. */
export function personOs(os: string | undefined): string | null {
  const value = os?.trim().toLowerCase();
  return value && OS.has(value) ? value : null;
}

/** source = utm.source, else the referrer host, else direct; null when the post carries no source data. */
export function firstTouchFrom(source: SourceInput | undefined): FirstTouch | null {
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
