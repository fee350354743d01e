// A post at an inbound door (docs/rest.md#third-party-doors): the exact raw bytes, which signatures cover,
// and the headers, read before any JSON parsing.

export type InboundHeaders = Record<string, string | string[] | undefined>;

export interface InboundPost {
  raw: Buffer;
  headers: InboundHeaders;
}

/** What a verifier proved: the parsed body and, where the scheme names one, the provider's delivery id. */
export interface Verified {
  payload: unknown;
  /** The same on every redelivery of one event (webhook-id, X-GitHub-Delivery, Stripe's evt_ id, Kinde's event_id). */
  deliveryId?: string;
}

/** A header by case-insensitive name; the first of repeated values. */
export function headerValue(headers: InboundHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const key = Object.keys(headers).find((k) => k.toLowerCase() === wanted);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

/** The body as JSON, or undefined when it is none (only ever called after the signature held). */
export function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}
