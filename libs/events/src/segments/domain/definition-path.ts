// Where in a definition as posted a name stands, so a refusal of a name (an event not seen, a list that does not
// exist) names its part as the grammar's own refusals do (docs/graphql.md#segments).

/** The path of the first place in `raw` where `key` holds `value` (definition.all[1].event), else null. */
export function pathOf(raw: unknown, key: string, value: string, at = 'definition'): string | null {
  if (Array.isArray(raw)) {
    for (const [i, item] of raw.entries()) {
      const found = pathOf(item, key, value, `${at}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const object = raw as Record<string, unknown>;
  if (object[key] === value) return `${at}.${key}`;
  for (const [k, inner] of Object.entries(object)) {
    const found = pathOf(inner, key, value, `${at}.${k}`);
    if (found) return found;
  }
  return null;
}
