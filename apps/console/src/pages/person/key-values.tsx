// An object's facts as key and value, never as JSON: nested objects by dotted key, lists joined.
import { Fragment } from 'react';

type Flat = Array<[key: string, value: string]>;

/** Each leaf of an object with its dotted key; empty values (null, '', {}) are left out. */
function flatten(value: unknown, prefix = ''): Flat {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) {
    const items = value.map((item) => (typeof item === 'object' && item !== null ? flatten(item) : [['', text(item)]]));
    const joined = items.map((leaves) => leaves.map(([k, v]) => (k ? `${k}: ${v}` : v)).join(', '));
    return joined.length ? [[prefix, joined.join('; ')]] : [];
  }
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) =>
      flatten(item, prefix ? `${prefix}.${key}` : key),
    );
  return [[prefix, text(value)]];
}

const text = (value: unknown) => (typeof value === 'string' ? value : String(value));

/** The facts of an object as a list of terms; nothing at all when it has none. */
export function KeyValues({ value, omit = [] }: { value: unknown; omit?: string[] }) {
  const leaves = flatten(value).filter(([key]) => !omit.includes(key.split('.')[0]));
  if (leaves.length === 0) return null;
  return (
    <dl className="key-values">
      {leaves.map(([key, item]) => (
        <Fragment key={key}>
          <dt>{key}</dt>
          <dd>{item}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
