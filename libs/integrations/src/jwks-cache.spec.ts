// The key set is fetched through the outgoing webhooks' address-checking agent: a loopback key set is
// reached only with UNSAFE_ALLOW_PRIVATE_TARGETS, and an unknown kid fetches again at most once a minute.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { exportJWK } from 'jose';
import type { AppConfig } from '@app/platform';
import { closeSafeAgents } from '@app/webhooks';
import { JwksCache } from './jwks-cache';

const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
let server: Server;
let origin: string;
let fetches = 0;
let kids = ['a'];

beforeAll(async () => {
  const jwk = await exportJWK(key.publicKey);
  server = createServer((_req, res) => {
    fetches++;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: kids.map((kid) => ({ ...jwk, kid, alg: 'RS256', use: 'sig' })) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeSafeAgents();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const cache = (allowPrivate: boolean) => new JwksCache({ allowPrivateTargets: allowPrivate } as AppConfig);
const header = (kid: string) => ({ alg: 'RS256', kid });

it('refuses to fetch a key set from a loopback address on a real deployment', async () => {
  const before = fetches;
  await expect(cache(false).keysOf(origin)(header('a'), {} as never)).rejects.toThrow();
  expect(fetches).toBe(before);
});

it('with private targets allowed: fetched once, cached, and fetched again for an unknown kid only once a minute', async () => {
  kids = ['a'];
  const keys = cache(true).keysOf(origin);
  const before = fetches;
  await keys(header('a'), {} as never);
  await keys(header('a'), {} as never);
  expect(fetches).toBe(before + 1);
  kids = ['a', 'b'];
  await keys(header('b'), {} as never);
  expect(fetches).toBe(before + 2);
  await expect(keys(header('c'), {} as never)).rejects.toThrow();
  expect(fetches).toBe(before + 2);
});
