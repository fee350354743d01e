// docs/rest.md#website-endpoints: posts are accepted only from the sites the workspace names.
// A pattern is an exact origin (https://acme.test), a subdomain wildcard (https://*.acme.test) or a
// port wildcard (http://localhost:*), which the demo workspace uses.

const PATTERN = /^(https?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d{1,5}|\*))?$/;

export function normalizeOriginPattern(raw: string): string | null {
  const value = raw.trim().toLowerCase().replace(/\/+$/, '');
  return PATTERN.test(value) ? value : null;
}

export function originAllowed(origin: string | undefined | null, patterns: readonly string[]): boolean {
  if (!origin) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  // Only an origin as browsers write it: no path, user or capitals (docs/security.md#browser-pages-and-origins).
  if (parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) return false;
  const scheme = parsed.protocol.slice(0, -1);
  const host = parsed.hostname.toLowerCase();
  const port = parsed.port;
  return patterns.some((pattern) => {
    const match = PATTERN.exec(pattern);
    if (!match) return false;
    const [, pScheme, wildcard, pHost, pPort] = match;
    if (pScheme !== scheme) return false;
    if (pPort === '*') {
      // any port, including the default one
    } else if ((pPort ?? '') !== port) {
      return false;
    }
    return wildcard ? host.endsWith(`.${pHost}`) : host === pHost;
  });
}
