// docs/webhooks.md#addresses; docs/configuration.md#settings (UNSAFE_ALLOW_PRIVATE_TARGETS).
import {
  checkWebhookAddress,
  checkWebhookUrl,
  isPublicAddress,
  MAX_ADDRESS_LENGTH,
  type ResolveHost,
} from './address-rule';

const strict = { allowPrivate: false };
const unsafe = { allowPrivate: true };

describe('address rule: public https address only', () => {
  const allowed: string[] = [
    'https://hooks.example.com/lifeline',
    'https://example.com',
    'https://example.com./trailing-dot',
    'https://api.example.co.uk:8443/in?x=1#frag',
    'https://xn--bcher-kva.example/path',
    'https://8.8.8.8/public-ipv4-literal',
    'https://[2606:4700:4700::1111]/public-ipv6-literal',
    'https://[2002:808:808::1]/6to4-wrapping-public-v4',
    'https://[64:ff9b::808:808]/nat64-wrapping-public-v4',
    'https://local.example.com/local-as-a-label-is-fine',
    'https://internal.example.com/',
  ];
  it.each(allowed)('allows %s', (url) => {
    const result = checkWebhookUrl(url, strict);
    expect(result.ok).toBe(true);
  });

  const refused: Array<[string, string]> = [
    ['not a URL', 'hooks.example.com/no-scheme'],
    ['not a URL', 'https://'],
    ['an invalid IPv4 with five parts', 'https://1.2.3.4.5/'],
    ['plain http', 'http://hooks.example.com/'],
    ['another scheme', 'ftp://hooks.example.com/'],
    ['a javascript: address', 'javascript:alert(1)'],
    ['credentials in the URL', 'https://user:pass@hooks.example.com/'],
    ['a user name alone', 'https://user@hooks.example.com/'],
    ['localhost', 'https://localhost/'],
    ['localhost with a trailing dot', 'https://localhost./'],
    ['localhost in upper case', 'https://LOCALHOST:8443/'],
    ['localhost in full-width letters', 'https://ｌｏｃａｌｈｏｓｔ/'],
    ['a *.localhost name', 'https://api.localhost/'],
    ['a .local name', 'https://printer.local/'],
    ['a .local name in upper case', 'https://printer.LOCAL/'],
    ['a .internal name', 'https://metadata.google.internal/'],
    ['a bare hostname', 'https://intranet/'],
    ['loopback 127.0.0.1', 'https://127.0.0.1/'],
    ['loopback elsewhere in 127/8', 'https://127.10.20.30/'],
    ['loopback as decimal 2130706433', 'https://2130706433/'],
    ['loopback as hex 0x7f000001', 'https://0x7f000001/'],
    ['loopback as octal 0177.0.0.1', 'https://0177.0.0.1/'],
    ['loopback short form 127.1', 'https://127.1/'],
    ['loopback mixed form 0x7f.1', 'https://0x7f.1/'],
    ['loopback percent-encoded', 'https://%31%32%37.0.0.1/'],
    ['unspecified 0.0.0.0', 'https://0.0.0.0/'],
    ['unspecified written as 0', 'https://0/'],
    ['private 10/8', 'https://10.0.0.5/'],
    ['private 172.16/12', 'https://172.31.255.1/'],
    ['private 192.168/16', 'https://192.168.1.1/'],
    ['link-local 169.254/16', 'https://169.254.10.10/'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['carrier-grade NAT 100.64/10', 'https://100.64.0.1/'],
    ['carrier-grade NAT upper end', 'https://100.127.255.254/'],
    ['broadcast', 'https://255.255.255.255/'],
    ['multicast', 'https://224.0.0.1/'],
    ['reserved 240/4', 'https://240.0.0.1/'],
    ['documentation 192.0.2/24', 'https://192.0.2.10/'],
    ['benchmarking 198.18/15', 'https://198.18.0.1/'],
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv6 unspecified', 'https://[::]/'],
    ['IPv6 link-local', 'https://[fe80::1]/'],
    ['IPv6 unique-local', 'https://[fc00::1]/'],
    ['the AWS IPv6 metadata address', 'https://[fd00:ec2::254]/'],
    ['IPv6 multicast', 'https://[ff02::1]/'],
    ['IPv6 documentation', 'https://[2001:db8::1]/'],
    ['IPv6 benchmarking', 'https://[2001:2::1]/'],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped IPv6 of a public address', 'https://[::ffff:8.8.8.8]/'],
    ['IPv4-compatible IPv6 loopback', 'https://[::127.0.0.1]/'],
    ['6to4 wrapping loopback', 'https://[2002:7f00:1::1]/'],
    ['6to4 wrapping metadata', 'https://[2002:a9fe:a9fe::]/'],
    ['NAT64 wrapping private 10.0.0.1', 'https://[64:ff9b::a00:1]/'],
    ['NAT64 local-use prefix', 'https://[64:ff9b:1::808:808]/'],
    ['Teredo', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
  ];
  it.each(refused)('refuses %s (%s)', (_what, url) => {
    const result = checkWebhookUrl(url, strict);
    expect(result.ok).toBe(false);
  });

  it('gives a reason that is one sentence naming the fix', () => {
    for (const [, url] of refused) {
      const result = checkWebhookUrl(url, strict);
      if (result.ok) throw new Error(`${url} was allowed`);
      expect(result.reason).toMatch(/^[A-Z][^.]*(\.[a-z][^.]*)*\.$/);
      expect(result.reason).toMatch(/^(Use|Enter|Remove)\b/);
    }
  });

  it('names the plain-http fix when http is refused', () => {
    const result = checkWebhookUrl('http://hooks.example.com/', strict);
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('https://') });
  });

  it('hands back the parsed URL when allowed', () => {
    const result = checkWebhookUrl('  https://Hooks.Example.com/a?b=1  ', strict);
    if (!result.ok) throw new Error(result.reason);
    expect(result.url.hostname).toBe('hooks.example.com');
    expect(result.url.href).toBe('https://hooks.example.com/a?b=1');
  });
});

describe('UNSAFE_ALLOW_PRIVATE_TARGETS lets tests reach loopback, private addresses and plain http', () => {
  it.each([
    'http://127.0.0.1:4010/hook',
    'https://127.0.0.1/',
    'http://localhost:3000/',
    'http://10.0.0.5/',
    'http://receiver/',
    'http://[::1]:8080/',
  ])('allows %s', (url) => {
    expect(checkWebhookUrl(url, unsafe).ok).toBe(true);
  });

  it.each([
    ['another scheme', 'ftp://127.0.0.1/'],
    ['credentials in the URL', 'http://user:pass@127.0.0.1/'],
    ['not a URL', 'not a url'],
  ])('still refuses %s', (_what, url) => {
    expect(checkWebhookUrl(url, unsafe).ok).toBe(false);
  });
});

describe('resolved addresses checked at send time', () => {
  it.each([
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
    ['2a00:1450:4001:80b::200e', true],
    ['2002:808:808::1', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.0.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['239.1.1.1', false],
    ['198.19.255.255', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fe80::1%eth0', false],
    ['fd00:ec2::254', false],
    ['fc00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['2002:c0a8:101::1', false],
    ['64:ff9b::7f00:1', false],
    ['not-an-ip', false],
    ['', false],
  ])('isPublicAddress(%s) is %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});

describe(`an address is at most ${MAX_ADDRESS_LENGTH} characters`, () => {
  const at = (length: number) =>
    `https://hooks.example.com/${'p'.repeat(length - 'https://hooks.example.com/'.length)}`;
  it('accepts exactly the limit and refuses one more, even under allowPrivate', () => {
    expect(checkWebhookUrl(at(MAX_ADDRESS_LENGTH), strict).ok).toBe(true);
    expect(checkWebhookUrl(at(MAX_ADDRESS_LENGTH + 1), strict)).toEqual({
      ok: false,
      reason: 'Use an address of at most 2,048 characters.',
    });
    expect(checkWebhookUrl(at(10_020), unsafe).ok).toBe(false);
  });
});

describe('when saved, the name is resolved and every address must be public', () => {
  const dns: Record<string, string[]> = {
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'loopback.example.com': ['127.0.0.1'],
    'private.example.com': ['10.0.0.5'],
    'metadata.example.com': ['169.254.169.254'],
    'v6-loopback.example.com': ['::1'],
    'one-bad-of-two.example.com': ['93.184.216.34', '192.168.1.10'],
  };
  const resolve: ResolveHost = async (host) => {
    const found = dns[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address }));
  };
  const saved = (url: string, allowPrivate = false) => checkWebhookAddress(url, { allowPrivate, resolve });

  it('accepts a name whose every address is public', async () => {
    expect((await saved('https://hooks.example.com/in')).ok).toBe(true);
  });

  it.each([
    ['loopback.example.com', '127.0.0.1'],
    ['private.example.com', '10.0.0.5'],
    ['metadata.example.com', '169.254.169.254'],
    ['v6-loopback.example.com', '::1'],
    ['one-bad-of-two.example.com', '192.168.1.10'],
  ])('refuses %s, which resolves to %s', async (host, address) => {
    expect(await saved(`https://${host}/in`)).toEqual({
      ok: false,
      reason: `${host} resolves to ${address}, which is not a public address: use an address on the public internet.`,
    });
  });

  it('refuses a name that does not resolve, saying so', async () => {
    const result = await saved('https://nowhere.example.com/in');
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(/^nowhere\.example\.com does not resolve to any address: check the host name/),
    });
  });

  it('still applies the rule before resolving (no DNS asked for plain http)', async () => {
    const asked: string[] = [];
    const result = await checkWebhookAddress('http://hooks.example.com/', {
      allowPrivate: false,
      resolve: async (h) => (asked.push(h), []),
    });
    expect(result.ok).toBe(false);
    expect(asked).toEqual([]);
  });

  it('judges IP literals without DNS', async () => {
    expect((await saved('https://8.8.8.8/')).ok).toBe(true);
    expect((await saved('https://127.0.0.1/')).ok).toBe(false);
  });

  it('resolves nothing under allowPrivate (tests only)', async () => {
    expect((await saved('http://loopback.example.com/', true)).ok).toBe(true);
  });
});
