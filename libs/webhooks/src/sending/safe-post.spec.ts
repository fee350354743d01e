// docs/webhooks.md#delivery-retries-and-the-log (success, failure, attempt time) and docs/webhooks.md#addresses.
// Real HTTP receivers on 127.0.0.1; allowPrivate stands for UNSAFE_ALLOW_PRIVATE_TARGETS in tests.
import { createServer as createTlsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { Webhook } from 'standardwebhooks';
import { signBody } from '../domain/webhook-body';
import { closeSafeAgents, createSafeAgent, safePost, signedHeaders } from './safe-post';
import { TEST_TLS_CERT, TEST_TLS_HOST, TEST_TLS_KEY } from './test-certificate';

interface Receiver {
  url: string;
  server: Server;
  connections: number;
  received: Array<{ method?: string; url?: string; headers: IncomingMessage['headers']; body: string }>;
}

async function startReceiver(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<Receiver> {
  const receiver: Receiver = { url: '', server: createServer(), connections: 0, received: [] };
  receiver.server.on('connection', () => receiver.connections++);
  receiver.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.received.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  return receiver;
}

const receivers: Receiver[] = [];
async function receiver(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

afterEach(async () => {
  await closeSafeAgents();
  for (const r of receivers.splice(0)) {
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
  }
});

const open = { timeoutMs: 2_000, allowPrivate: true };
const BODY = '{"id":"dlv_1","type":"test"}';

describe('safePost: success is a 2xx answer', () => {
  it('counts a 200 as success and sends the exact body and headers', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end('thanks'));
    const outcome = await safePost(`${r.url}/hook`, BODY, { 'X-Service-Delivery': 'dlv_1' }, open);
    expect(outcome).toMatchObject({ ok: true, status: 200, bodyExcerpt: 'thanks' });
    expect(outcome.error).toBeUndefined();
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(r.received).toHaveLength(1);
    expect(r.received[0]).toMatchObject({ method: 'POST', url: '/hook', body: BODY });
    expect(r.received[0].headers['x-service-delivery']).toBe('dlv_1');
    expect(r.received[0].headers['content-type']).toBe('application/json');
  });

  it('counts a 204 as success', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end());
    expect(await safePost(r.url, BODY, {}, open)).toMatchObject({ ok: true, status: 204, bodyExcerpt: '' });
  });

  it('reuses keep-alive connections for deliveries in a row', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end('ok'));
    for (let i = 0; i < 20; i++) expect((await safePost(r.url, BODY, {}, open)).ok).toBe(true);
    // The pool may open a second socket while the first is being handed back; never one per delivery.
    expect(r.connections).toBeLessThanOrEqual(2);
  });
});

describe('safePost: any non-2xx answer is a failure', () => {
  it('reports a 500 with its status and the first 500 characters of the answer', async () => {
    const r = await receiver((_req, res) => res.writeHead(500).end('x'.repeat(450) + 'é'.repeat(100)));
    const outcome = await safePost(r.url, BODY, {}, open);
    expect(outcome.ok).toBe(false);
    expect(outcome.status).toBe(500);
    expect(outcome.bodyExcerpt).toBe('x'.repeat(450) + 'é'.repeat(50));
  });

  it('reads a huge answer only so far: its status and excerpt, the rest left unread', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200);
      const chunk = 'y'.repeat(16 * 1024);
      // about 10 MB, more than any attempt reads (64 KB), written as fast as the socket takes it
      let left = 640;
      const more = () => {
        while (left-- > 0) if (!res.write(chunk)) return void res.once('drain', more);
        res.end();
      };
      more();
    });
    const outcome = await safePost(r.url, BODY, {}, open);
    expect(outcome).toMatchObject({ ok: true, status: 200, bodyExcerpt: 'y'.repeat(500) });
    expect(outcome.error).toBeUndefined();
    expect(outcome.durationMs).toBeLessThan(2_000);
  });

  it('counts a 302 as a failure and does not follow it', async () => {
    const target = await receiver((_req, res) => res.writeHead(200).end('should not be reached'));
    const r = await receiver((_req, res) => res.writeHead(302, { location: `${target.url}/elsewhere` }).end());
    const outcome = await safePost(r.url, BODY, {}, open);
    expect(outcome).toMatchObject({ ok: false, status: 302 });
    expect(target.received).toHaveLength(0);
    expect(r.received).toHaveLength(1);
  });

  it('counts a 404 as a failure', async () => {
    const r = await receiver((_req, res) => res.writeHead(404).end('no'));
    expect(await safePost(r.url, BODY, {}, open)).toMatchObject({ ok: false, status: 404, bodyExcerpt: 'no' });
  });

  it('reports no answer (connection refused) as a failure with an error', async () => {
    const r = await receiver((_req, res) => res.end());
    const closedUrl = r.url;
    r.server.close();
    const outcome = await safePost(closedUrl, BODY, {}, open);
    expect(outcome.ok).toBe(false);
    expect(outcome.status).toBeUndefined();
    expect(outcome.error).toMatch(/ECONNREFUSED/);
  });
});

describe('safePost: one attempt gets a bounded time', () => {
  it('fails a receiver that never answers once the time is up, with an error', async () => {
    await receiver(() => undefined);
    const r = receivers[receivers.length - 1];
    const outcome = await safePost(r.url, BODY, {}, { timeoutMs: 300, allowPrivate: true });
    expect(outcome.ok).toBe(false);
    expect(outcome.status).toBeUndefined();
    expect(outcome.error).toBe('No complete answer within 300 ms.');
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(2_000);
  });

  it('fails a receiver that sends headers and then stalls the body', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    });
    const outcome = await safePost(r.url, BODY, {}, { timeoutMs: 300, allowPrivate: true });
    expect(outcome).toMatchObject({ ok: false, status: 200, error: 'No complete answer within 300 ms.' });
    expect(outcome.durationMs).toBeLessThan(2_000);
  });
});

describe('safePost: public addresses only unless UNSAFE_ALLOW_PRIVATE_TARGETS', () => {
  const strict = { timeoutMs: 2_000, allowPrivate: false };

  /** A strict post to hooks.example.com on a receiver's port, through an agent whose look-up answers `addresses`. */
  async function postToHooksResolvingTo(addresses: Array<{ address: string; family: number }>) {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const port = new URL(r.url).port;
    const agent = createSafeAgent({ allowPrivate: false, resolve: async () => addresses });
    const outcome = await safePost(`https://hooks.example.com:${port}/`, BODY, {}, { ...strict, dispatcher: agent });
    await agent.close();
    return { outcome, connections: r.connections };
  }

  it('refuses http://127.0.0.1 before connecting', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const outcome = await safePost(r.url, BODY, {}, strict);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/^Use /);
    expect(r.connections).toBe(0);
  });

  it('refuses a localhost name before connecting', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const port = new URL(r.url).port;
    const outcome = await safePost(`https://localhost:${port}/`, BODY, {}, strict);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/localhost/);
    expect(r.connections).toBe(0);
  });

  it('refuses a public-looking name that resolves to 127.0.0.1 at connect time (no rebinding window)', async () => {
    const { outcome, connections } = await postToHooksResolvingTo([{ address: '127.0.0.1', family: 4 }]);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toBe(
      'hooks.example.com resolves to 127.0.0.1, which is not a public address; use an address on the public internet.',
    );
    expect(connections).toBe(0);
  });

  it('refuses a name when any one of its addresses is not public', async () => {
    const { outcome, connections } = await postToHooksResolvingTo([
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]);
    expect(outcome.error).toMatch(/resolves to 127\.0\.0\.1/);
    expect(connections).toBe(0);
  });

  it('connects to the address it checked, not to a second lookup', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end('checked'));
    const port = new URL(r.url).port;
    let lookups = 0;
    const agent = createSafeAgent({
      allowPrivate: true,
      resolve: async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    // A name that no real DNS answers: reaching the receiver proves the checked answer was used.
    const answer = await request(`http://receiver.invalid:${port}/`, { method: 'POST', body: BODY, dispatcher: agent });
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.text()).toBe('checked');
    await agent.close();
    expect(lookups).toBe(1);
    expect(r.received[0].headers.host).toBe(`receiver.invalid:${port}`);
  });

  it('refuses an IP literal host at connect time even when the URL check is bypassed', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const agent = createSafeAgent({ allowPrivate: false });
    await expect(request(r.url, { method: 'POST', body: BODY, dispatcher: agent })).rejects.toThrow(
      /127\.0\.0\.1, which is not a public address/,
    );
    await agent.close();
    expect(r.connections).toBe(0);
  });

  it('lets a name resolving to 127.0.0.1 through under UNSAFE_ALLOW_PRIVATE_TARGETS', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const port = new URL(r.url).port;
    const agent = createSafeAgent({ allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const outcome = await safePost(`http://receiver.test:${port}/`, BODY, {}, { ...open, dispatcher: agent });
    await agent.close();
    expect(outcome).toMatchObject({ ok: true, status: 200 });
  });

  it('keeps the host name as TLS servername while connecting to the checked address', async () => {
    const server = createTlsServer({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT }, (_req, res) =>
      res.writeHead(200).end('tls'),
    );
    const servernames: Array<string | false | null> = [];
    server.on('secureConnection', (socket: TLSSocket) => servernames.push(socket.servername));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const agent = createSafeAgent({
      allowPrivate: true,
      ca: TEST_TLS_CERT,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    try {
      const outcome = await safePost(`https://${TEST_TLS_HOST}:${port}/`, BODY, {}, { ...open, dispatcher: agent });
      expect(outcome).toMatchObject({ ok: true, status: 200, bodyExcerpt: 'tls' });
      expect(servernames).toEqual([TEST_TLS_HOST]);
    } finally {
      await agent.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

// The headers of every signed post: the spec's X-Service-* and the Standard Webhooks ones.
const secret = 'whsec_' + Buffer.alloc(24, 3).toString('base64');
const previous = 'whsec_' + Buffer.alloc(24, 4).toString('base64');
const post = { id: 'dlv_01', type: 'event', body: '{"id":"dlv_01","type":"event"}' };

describe('signed post headers', () => {
  it('carry the spec headers and the Standard Webhooks headers, verifiable with the standardwebhooks package', () => {
    const headers = signedHeaders(post, { secret }, 1_700_000_000_500);
    expect(headers).toMatchObject({
      'X-Service-Delivery': 'dlv_01',
      'X-Service-Event': 'event',
      'X-Service-Signature': signBody(secret, post.body),
      'webhook-id': 'dlv_01',
      'webhook-timestamp': '1700000000',
    });
    jest.spyOn(Date, 'now').mockReturnValueOnce(1_700_000_010_000);
    expect(new Webhook(secret).verify(post.body, headers)).toEqual(JSON.parse(post.body));
  });

  it('during a rotation both secrets verify, and X-Service-Signature stays under the previous one', () => {
    const headers = signedHeaders(post, { secret, previous }, Date.now());
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(secret).verify(post.body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(post.body, headers)).not.toThrow();
    expect(headers['X-Service-Signature']).toBe(signBody(previous, post.body));
  });
});
