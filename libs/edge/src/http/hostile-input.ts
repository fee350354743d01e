// What no door accepts, whatever its own rules (docs/security.md "Input"): PostgreSQL cannot store a
// NUL character in text or a lone UTF-16 surrogate in json, and a value nested deeper than
// MAX_JSON_DEPTH is no customer's data but a way to exhaust a stack. Pure: no Nest, no I/O.
import { Refusal } from '@app/platform';

/** Deepest nesting of objects and arrays a JSON body may have (the body itself is depth 1). */
export const MAX_JSON_DEPTH = 32;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a string for storage, or null when nothing is. */
export function unstorableText(text: string): 'a NUL character' | 'a lone surrogate' | null {
  if (text.includes('\u0000')) return 'a NUL character';
  if (LONE_SURROGATE.test(text)) return 'a lone surrogate';
  return null;
}

function fieldName(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  const plain = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key.replace(/[\u0000\uD800-\uDFFF]/g, '?')).slice(0, 60);
  if (!path) return plain;
  return /^[A-Za-z_$]/.test(plain) ? `${path}.${plain}` : `${path}[${plain}]`;
}

/**
 * Walks a parsed JSON value (without recursion, so no depth can overflow the stack) and answers the
 * refusal for the first string, key or nesting level no door may accept; null when all is well.
 * `root` names the whole value in the message (body, variables, query).
 */
export function hostileJsonRefusal(value: unknown, root = 'body'): Refusal | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    const name = path || root;
    if (typeof current === 'string') {
      const problem = unstorableText(current);
      if (problem) return textRefusal(name, problem);
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > MAX_JSON_DEPTH) {
      return new Refusal('invalid_field', `${name} is nested deeper than ${MAX_JSON_DEPTH} levels: flatten it.`, { field: name });
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(current) ? current.map((v, i) => [i, v]) : Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      if (typeof key === 'string') {
        const problem = unstorableText(key);
        if (problem) return textRefusal(path ? `a key in ${path}` : `a key of the ${root}`, problem);
      }
      stack.push({ value: child, path: fieldName(path, key), depth: depth + 1 });
    }
  }
  return null;
}

function textRefusal(name: string, problem: string): Refusal {
  return new Refusal('invalid_field', `${name} contains ${problem}, which cannot be stored: remove it and send it again.`, { field: name });
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
      return new Refusal('invalid_field', 'The address has a %-escape that is not UTF-8: encode the path with encodeURIComponent.', { field: 'path' });
    }
    const problem = unstorableText(decoded);
    if (problem) return textRefusal('the path', problem);
  }
  return hostileJsonRefusal(query, 'query');
}
