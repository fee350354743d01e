// docs/security.md#outgoing-requests-never-reach-a-private-address: an outgoing address is resolved
// when saved, through a resolver this test controls, and refused unless every address it has is public.
// The app runs with UNSAFE_ALLOW_PRIVATE_TARGETS off, as in production.
import { AddressResolver } from '@app/webhooks';
import { useApp, useWorkspace } from './harness';

const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'sneaky.example.com': ['127.0.0.1'],
  'cloud.example.com': ['169.254.169.254'],
  'office.example.com': ['10.0.0.5'],
  'v6.example.com': ['::1'],
};

const t = useApp({ env: { UNSAFE_ALLOW_PRIVATE_TARGETS: 'false' } });
const ws = useWorkspace(t, {}, 'all');
const asked: string[] = [];

beforeAll(() => {
  t.app.get(AddressResolver).resolveHost = async (host) => {
    asked.push(host);
    if (!DNS[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return DNS[host].map((address) => ({ address }));
  };
});

const CREATE =
  'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id url } } }';
const UPDATE =
  'mutation($id: ID!, $input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(id: $id, input: $input) { id url } }';
const create = (url: string) => t.gql(CREATE, { input: { url, triggers: ['event'] } }, ws.secretKey);
const endpoints = async () =>
  (await t.db.query('SELECT url FROM webhook_endpoints WHERE workspace_id = $1 ORDER BY url', [ws.workspace.id])).map(
    (r: { url: string }) => r.url,
  );

describe('a webhook address is resolved when saved', () => {
  it.each([
    ['sneaky.example.com', '127.0.0.1'],
    ['cloud.example.com', '169.254.169.254'],
    ['office.example.com', '10.0.0.5'],
    ['v6.example.com', '::1'],
  ])('a name that resolves to a private address (%s -> %s) is refused, and nothing is saved', async (host, address) => {
    const before = await endpoints();
    const answer = await create(`https://${host}/in`);
    expect(answer.data).toBeNull();
    expect(answer.errors).toEqual([
      expect.objectContaining({
        message: `${host} resolves to ${address}, which is not a public address: use an address on the public internet.`,
        extensions: { code: 'invalid_field', status: 400 },
      }),
    ]);
    expect(asked).toContain(host);
    expect(await endpoints()).toEqual(before);
  });

  it('a name that does not resolve is refused with a sentence saying so', async () => {
    const answer = await create('https://typo.example.com/in');
    expect(answer.errors?.[0].message).toMatch(
      /^typo\.example\.com does not resolve to any address: check the host name/,
    );
    expect(await endpoints()).toEqual([]);
  });

  it('a name whose addresses are public is saved', async () => {
    const answer = await create('https://hooks.example.com/in');
    expect(answer.errors).toBeUndefined();
    expect(answer.data.createWebhookEndpoint.endpoint.url).toBe('https://hooks.example.com/in');
  });

  it('changing a saved address to a private one is refused and keeps the old one', async () => {
    const { data } = await create('https://hooks.example.com/second');
    const answer = await t.gql(
      UPDATE,
      { id: data.createWebhookEndpoint.endpoint.id, input: { url: 'https://sneaky.example.com/in' } },
      ws.secretKey,
    );
    expect(answer.errors?.[0].extensions.code).toBe('invalid_field');
    expect(await endpoints()).toContain('https://hooks.example.com/second');
    expect(await endpoints()).not.toContain('https://sneaky.example.com/in');
  });

  it('an address over 2,048 characters is refused before any lookup', async () => {
    asked.length = 0;
    const answer = await create(`https://hooks.example.com/${'x'.repeat(10_000)}`);
    expect(answer.errors?.[0].message).toBe('Use an address of at most 2,048 characters.');
    expect(asked).toEqual([]);
  });
});
