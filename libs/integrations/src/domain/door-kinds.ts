// docs/rest.md#third-party-doors: the four third-party doors, what each is connected with, and which signature
// scheme of edge's verifier registry checks its posts.
import { InboundVerifierKind, isStandardWebhookSecret } from '@app/edge';
import { Refusal } from '@app/platform';
import { checkWebhookUrl } from '@app/webhooks';

export const DOOR_KINDS = ['payment', 'auth_a', 'auth_b', 'hosting'] as const;
export type DoorKind = (typeof DOOR_KINDS)[number];

export const VERIFIER_OF: Record<DoorKind, InboundVerifierKind> = {
  payment: 'stripe',
  auth_a: 'standard_webhooks',
  auth_b: 'jwt_jwks',
  hosting: 'github_hmac',
};

export const isDoorKind = (kind: unknown): kind is DoorKind =>
  typeof kind === 'string' && (DOOR_KINDS as readonly string[]).includes(kind);

export interface ConnectDoorInput {
  kind: string;
  secret?: string | null;
  domain?: string | null;
  stars?: boolean | null;
}

export interface DoorSettings {
  kind: DoorKind;
  secret: string | null;
  /** auth_b: the host name, or (UNSAFE_ALLOW_PRIVATE_TARGETS) the origin, whose key set signs the posts. */
  domain: string | null;
  stars: boolean;
}

const MAX_SECRET = 500;
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const field = (name: string, fix: string) => new Refusal('invalid_field', `${name}: ${fix}`);

function secretRefusal(kind: DoorKind, secret: string): Refusal | null {
  if (secret.length > MAX_SECRET)
    return field(
      'secret',
      `at most ${MAX_SECRET} characters; paste the signing secret exactly as the provider shows it.`,
    );
  if (kind === 'payment' && !/^whsec_\S+$/.test(secret))
    return field('secret', "paste the endpoint's signing secret from Stripe's dashboard; it starts with whsec_.");
  if (kind === 'auth_a' && !isStandardWebhookSecret(secret))
    return field('secret', "paste the endpoint's signing secret from Clerk's dashboard; it starts with whsec_.");
  return null;
}

/** The address whose key set signs auth_b posts; a host name, or under allowPrivate a full origin. */
export function jwksUrl(domain: string): string {
  return /^https?:\/\//.test(domain) ? `${domain}/.well-known/jwks` : `https://${domain}/.well-known/jwks`;
}

function domainOf(raw: string, allowPrivate: boolean): string | Refusal {
  const domain = raw.trim().replace(/\/+$/, '').toLowerCase();
  const fix = "the business's Kinde host name, like acme.kinde.com (or its custom domain), without https://.";
  if (/^https?:\/\//.test(domain)) {
    if (!allowPrivate) return field('domain', fix);
    let url: URL;
    try {
      url = new URL(domain);
    } catch {
      return field('domain', fix);
    }
    if (url.pathname !== '/' || url.search || url.hash)
      return field('domain', 'an origin only, like http://127.0.0.1:4010, with no path.');
    return url.origin;
  }
  if (!HOST_NAME.test(domain)) return field('domain', fix);
  const check = checkWebhookUrl(jwksUrl(domain), { allowPrivate });
  return check.ok ? domain : field('domain', check.reason);
}

/** connectDoor's input -> what is stored, or invalid_field naming the fix. */
export function parseConnectInput(input: ConnectDoorInput, options: { allowPrivate: boolean }): DoorSettings | Refusal {
  const { kind } = input;
  if (!isDoorKind(kind)) return field('kind', `one of ${DOOR_KINDS.join(', ')}.`);
  const secret = input.secret?.trim() || null;
  const rawDomain = input.domain?.trim() || null;
  if (input.stars && kind !== 'hosting') return field('stars', 'only the hosting door posts stars; leave it out.');
  if (kind === 'auth_b') {
    if (secret)
      return field(
        'secret',
        "the auth_b door takes no secret: its posts are tokens checked against the domain's key set. Send domain only.",
      );
    if (!rawDomain) return field('domain', "the auth_b door needs the business's Kinde domain, like acme.kinde.com.");
    const domain = domainOf(rawDomain, options.allowPrivate);
    return domain instanceof Refusal ? domain : { kind, secret: null, domain, stars: false };
  }
  if (rawDomain) return field('domain', `only the auth_b door takes a domain; the ${kind} door takes a secret.`);
  if (!secret)
    return field('secret', `the ${kind} door needs the signing secret its provider shows for this endpoint.`);
  const refused = secretRefusal(kind, secret);
  return refused ?? { kind, secret, domain: null, stars: kind === 'hosting' && input.stars === true };
}
