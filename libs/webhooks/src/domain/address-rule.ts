// docs/webhooks.md#addresses, for webhook addresses and automation http_request steps alike;
// docs/configuration.md#settings (UNSAFE_ALLOW_PRIVATE_TARGETS).
//
// Choice on IP literals: a literal is judged like an address a name resolves to, so a public one
// (https://8.8.8.8) passes, as Svix allows it, and a non-public one is refused in every spelling the
// URL parser accepts (2130706433, 0x7f000001, 0177.0.0.1 and 127.1 all arrive here as 127.0.0.1).
// IPv4-mapped IPv6 literals (::ffff:a.b.c.d) are always refused: no public service needs them.
// Under allowPrivate (tests only) http, private addresses and local or bare names are all allowed.
//
// When saved (checkWebhookAddress) the name is also resolved and every address it resolves to must
// be public; at send time the safe agent checks again what it connects to (DNS may change between).
import * as ipaddr from 'ipaddr.js';

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Longest address accepted (as Svix and browsers' practical limit; the 10,020-character one was not). */
export const MAX_ADDRESS_LENGTH = 2048;

/** Resolves a host name to every address it has; injected so tests can stand for DNS. */
export type ResolveHost = (hostname: string) => Promise<Array<{ address: string; family?: number }>>;

// IPv6 global unicast is 2000::/3; anything outside it is not a public destination.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
// Names that only mean something inside a network, never on the public internet.
const PRIVATE_SUFFIXES = ['.localhost', '.local', '.internal'];

const REASONS = {
  notUrl: 'Enter a full address that starts with https://.',
  notHttps: 'Use an https:// address; plain http and other schemes are not allowed.',
  notHttpOrHttps: 'Use an http:// or https:// address.',
  credentials: 'Remove the user name and password from the address and authenticate with the signature header instead.',
  localName: 'Use a public host name instead of localhost, a .local or an .internal name.',
  bareHost: 'Use a full public host name with a dot in it, such as hooks.example.com.',
  mappedV6: 'Use the plain public IPv4 address or a host name instead of an IPv4-mapped IPv6 address.',
  privateIp:
    'Use a public address; private, loopback, link-local, carrier-grade NAT, metadata and reserved addresses ' +
    'are not allowed.',
  tooLong: `Use an address of at most ${MAX_ADDRESS_LENGTH.toLocaleString('en-US')} characters.`,
} as const;

/** Is this URL allowed as an outgoing webhook or automation target? Checked when saved and again at send time. */
export function checkWebhookUrl(url: string, opts: { allowPrivate: boolean }): WebhookUrlCheck {
  if (url.length > MAX_ADDRESS_LENGTH) return refuse(REASONS.tooLong);
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return refuse(REASONS.notUrl);
  }
  if (parsed.protocol !== 'https:') {
    const httpAllowed = opts.allowPrivate && parsed.protocol === 'http:';
    if (!httpAllowed) return refuse(opts.allowPrivate ? REASONS.notHttpOrHttps : REASONS.notHttps);
  }
  if (parsed.username !== '' || parsed.password !== '') return refuse(REASONS.credentials);
  if (parsed.hostname === '') return refuse(REASONS.notUrl);
  if (opts.allowPrivate) return { ok: true, url: parsed };

  const literal = ipLiteral(parsed.hostname);
  if (literal) {
    if (literal.kind() === 'ipv6' && (literal as ipaddr.IPv6).isIPv4MappedAddress()) {
      return refuse(REASONS.mappedV6);
    }
    return isPublicParsed(literal) ? { ok: true, url: parsed } : refuse(REASONS.privateIp);
  }

  // A trailing dot names the same host (localhost. is localhost).
  const host = parsed.hostname.replace(/\.+$/, '');
  if (host === 'localhost' || PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return refuse(REASONS.localName);
  }
  if (!host.includes('.')) return refuse(REASONS.bareHost);
  return { ok: true, url: parsed };
}

/**
 * The check when an address is saved: checkWebhookUrl, then the host name resolved with `resolve`
 * and every address it resolves to public. A name that does not resolve is refused: a typo found
 * now is better than a delivery that retries for a day. IP literals were judged by checkWebhookUrl.
 */
export async function checkWebhookAddress(
  url: string,
  opts: { allowPrivate: boolean; resolve: ResolveHost },
): Promise<WebhookUrlCheck> {
  const check = checkWebhookUrl(url, opts);
  if (!check.ok || opts.allowPrivate || ipLiteral(check.url.hostname)) return check;
  const host = check.url.hostname.replace(/\.+$/, '');
  let found: Array<{ address: string }>;
  try {
    found = await opts.resolve(host);
  } catch {
    found = [];
  }
  if (found.length === 0) {
    return refuse(
      `${host.slice(0, 100)} does not resolve to any address: check the host name, or publish its DNS record ` +
        `before saving the address.`,
    );
  }
  const refused = found.find((entry) => !isPublicAddress(entry.address));
  if (refused)
    return refuse(
      `${host.slice(0, 100)} resolves to ${refused.address}, which is not a public address: use an address on ` +
        `the public internet.`,
    );
  return check;
}

/** Is a resolved address (from DNS, at send time) one we may connect to? */
export function isPublicAddress(ip: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(ip.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
  return isPublicParsed(parsed);
}

function isPublicParsed(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return isPublicV4(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  switch (v6.range()) {
    case 'unicast':
      return v6.match(GLOBAL_UNICAST_V6);
    case 'ipv4Mapped':
      return isPublicV4(v6.toIPv4Address());
    case '6to4':
      // 2002:AABB:CCDD::/48 carries the IPv4 address AA.BB.CC.DD in parts 1 and 2.
      return isPublicV4(v4FromParts(v6.parts[1], v6.parts[2]));
    case 'rfc6052':
      // Only the well-known NAT64 prefix 64:ff9b::/96 is global; 64:ff9b:1::/48 is for local use.
      return v6.parts[1] === 0xff9b && v6.parts[2] === 0 && isPublicV4(v4FromParts(v6.parts[6], v6.parts[7]));
    default:
      // loopback, linkLocal, uniqueLocal (incl. fd00:ec2::254), multicast, teredo, benchmarking, reserved, ...
      return false;
  }
}

function isPublicV4(address: ipaddr.IPv4): boolean {
  // range() covers loopback, private, linkLocal (incl. 169.254.169.254), carrierGradeNat,
  // unspecified, broadcast, multicast, reserved (incl. benchmarking 198.18/15), as112 and amt.
  return address.range() === 'unicast';
}

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function ipLiteral(hostname: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (hostname.startsWith('[') && hostname.endsWith(']')) {
    try {
      return ipaddr.IPv6.parse(hostname.slice(1, -1));
    } catch {
      return null;
    }
  }
  // The URL parser already turns every IPv4 spelling into dotted decimal; ipaddr's looser parser
  // is a second net in case a host ever arrives in another form.
  if (ipaddr.IPv4.isValid(hostname)) return ipaddr.IPv4.parse(hostname);
  return null;
}

function refuse(reason: string): WebhookUrlCheck {
  return { ok: false, reason };
}
