// Posted input, read alike by every door. Pure: no Nest, no I/O.
// - What no door accepts, whatever its own rules
//   (docs/security.md#input-every-door-refuses-what-no-door-can-store): PostgreSQL cannot store a NUL
//   character in text or a lone UTF-16 surrogate in json, and a value nested deeper than MAX_JSON_DEPTH
//   is no customer's data but a way to exhaust a stack.
// - The readers of single posted fields the doors' rules are written with
//   (docs/rest.md#answers-and-refusals): a malformed one is invalid_field naming it; dates are ISO 8601.
import { isIP } from 'node:net';
import { Refusal } from '@app/platform/plain';

/** Deepest nesting of objects and arrays a JSON body may have (the body itself is depth 1). */
export const MAX_JSON_DEPTH = 32;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
// SUSPECT: a NUL or any surrogate, the only characters either rule can refuse.
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a string for storage, or null when nothing is. */
export function unstorableText(text: string): 'a NUL character' | 'a lone surrogate' | null {
  if (!SUSPECT.test(text)) return null; // one plain scan for the usual text, with neither
  if (text.includes('\u0000')) return 'a NUL character';
  if (LONE_SURROGATE.test(text)) return 'a lone surrogate';
  return null;
}

function fieldName(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  const plain = /^[A-Za-z_$][\w$]*$/.test(key)
    ? key
    : JSON.stringify(key.replace(/[\u0000\uD800-\uDFFF]/g, '?')).slice(0, 60);
  if (!path) return plain;
  return /^[A-Za-z_$]/.test(plain) ? `${path}.${plain}` : `${path}[${plain}]`;
}

/**
 * Walks a parsed JSON value (without recursion, so no depth can overflow the stack) and answers the
 * refusal for the first string, key or nesting level no door may accept; null when all is well.
 * `root` names the whole value in the message (body, variables, query).
 */
export function hostileJsonRefusal(value: unknown, root = 'body'): Refusal | null {
  // A value's name is made only for a refusal: from its parent's node and its key (most values pass).
  interface Node {
    value: unknown;
    parent: Node | null;
    key: string | number;
    depth: number;
  }
  const pathOf = (node: Node | null): string =>
    node === null || node.parent === null ? '' : fieldName(pathOf(node.parent), node.key);
  const stack: Node[] = [{ value, parent: null, key: '', depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      const problem = unstorableText(current);
      if (problem) return textRefusal(pathOf(node) || root, problem);
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (node.depth + 1 > MAX_JSON_DEPTH) {
      const name = pathOf(node) || root;
      return new Refusal('invalid_field', `${name} is nested deeper than ${MAX_JSON_DEPTH} levels: flatten it.`, {
        field: name,
      });
    }
    const depth = node.depth + 1;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], parent: node, key: i, depth });
      continue;
    }
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const problem = unstorableText(key);
      if (problem) {
        const path = pathOf(node);
        return textRefusal(path ? `a key in ${path}` : `a key of the ${root}`, problem);
      }
      stack.push({ value: (current as Record<string, unknown>)[key], parent: node, key, depth });
    }
  }
  return null;
}

function textRefusal(name: string, problem: string): Refusal {
  return new Refusal(
    'invalid_field',
    `${name} contains ${problem}, which cannot be stored: remove it and send it again.`,
    { field: name },
  );
}

/**
 * The request line's own parts: each path segment (decoded) and each query parameter. A segment
 * that does not decode is refused as well, since no route could read it.
 */
export function hostileRequestLineRefusal(path: string, query: Record<string, unknown>): Refusal | null {
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return new Refusal(
        'invalid_field',
        'The address has a %-escape that is not UTF-8: encode the path with encodeURIComponent.',
        { field: 'path' },
      );
    }
    const problem = unstorableText(decoded);
    if (problem) return textRefusal('the path', problem);
  }
  return hostileJsonRefusal(query, 'query');
}

// --- readers of single fields -------------------------------------------------------------------

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

/** What parseInstant reads (after trimming); the OpenAPI document gives it as the pattern of an instant. */
export const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

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
