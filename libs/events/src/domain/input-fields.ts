// decisions.md section 3: readers of single posted fields; a malformed one is invalid_field naming it.
import { isIP } from 'node:net';
import { Refusal } from '@app/platform';

export type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object as JSON.parse makes it: not an array, a Date or a class instance. */
export function isPlainObject(value: unknown): value is Obj {
  if (!isObject(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Absent: undefined or null; JSON clients send null for an option they leave unset. */
export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

export function invalidField(field: string, fix: string): Refusal {
  return new Refusal('invalid_field', `${field} must be ${fix}.`);
}

export interface TextRule {
  max: number;
  /** Keep the string exactly as sent (consent words, a message); otherwise trimmed. */
  verbatim?: boolean;
}

/** An optional string: undefined when absent or blank, else the string, or invalid_field naming the field. */
export function optionalText(input: Obj, field: string, rule: TextRule, label = field): string | undefined | Refusal {
  const value = input[field];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string') return invalidField(label, 'a string, or left out');
  const kept = rule.verbatim ? value : value.trim();
  if (kept.trim() === '') return undefined;
  if (kept.length > rule.max) return invalidField(label, `at most ${rule.max} characters long`);
  return kept;
}

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * An ISO 8601 date or date-time, or null. Calendar-checked (no 30 February). A date alone is
 * midnight UTC, and a time without an offset is read as UTC, so the server's zone never matters.
 */
export function parseInstant(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = ISO_8601.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const check = new Date(utc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  const offset = zone.toUpperCase() === 'Z' ? 0 : offsetMinutes(zone);
  if (offset === null) return null;
  return new Date(utc - offset * 60_000);
}

function offsetMinutes(zone: string): number | null {
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

export function isIpAddress(value: string): boolean {
  return isIP(value) !== 0;
}
