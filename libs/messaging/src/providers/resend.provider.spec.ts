import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { ResendEmailProvider } from './resend.provider';

interface Seen {
  method: string;
  path: string;
  auth: string | undefined;
  contentType: string | undefined;
  body: string;
}

async function standIn(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        auth: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const mail = {
  from: 'Acme <hi@acme.test>',
  to: 'ada@example.com',
  subject: 'Welcome',
  html: '<p>Hi</p>',
  text: 'Hi',
  headers: { 'X-Entity-Ref-ID': 'msg_1' },
};

describe('Resend provider: POST {RESEND_API_URL}/emails', () => {
  it("posts the email as JSON with the key as a bearer, and returns the answer's id as providerId", async () => {
    const { server, url, seen } = await standIn((_req, res) => json(res, 200, { id: 're_email_123' }));
    try {
      const { providerId } = await new ResendEmailProvider('re_key', `${url}/`).send(mail);
      expect(providerId).toBe('re_email_123');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        method: 'POST',
        path: '/emails',
        auth: 'Bearer re_key',
        contentType: 'application/json',
      });
      expect(JSON.parse(seen[0].body)).toEqual({
        from: 'Acme <hi@acme.test>',
        to: ['ada@example.com'],
        subject: 'Welcome',
        html: '<p>Hi</p>',
        text: 'Hi',
        headers: { 'X-Entity-Ref-ID': 'msg_1' },
      });
    } finally {
      await close(server);
    }
  });

  it("throws an Error naming the status and the answer's message on a non-2xx answer", async () => {
    const { server, url } = await standIn((_req, res) =>
      json(res, 422, { statusCode: 422, name: 'validation_error', message: 'The from address is not verified.' }),
    );
    try {
      await expect(new ResendEmailProvider('re_key', url).send(mail)).rejects.toThrow(
        'Resend answered 422: The from address is not verified.',
      );
    } finally {
      await close(server);
    }
  });

  it('throws with the raw answer when an error answer is not JSON', async () => {
    const { server, url } = await standIn((_req, res) => {
      res.writeHead(502);
      res.end('Bad gateway');
    });
    try {
      await expect(new ResendEmailProvider('re_key', url).send(mail)).rejects.toThrow(
        'Resend answered 502: Bad gateway',
      );
    } finally {
      await close(server);
    }
  });

  it('throws when a 2xx answer carries no id', async () => {
    const { server, url } = await standIn((_req, res) => json(res, 200, {}));
    try {
      await expect(new ResendEmailProvider('re_key', url).send(mail)).rejects.toThrow(/no id/);
    } finally {
      await close(server);
    }
  });

  it("fetches a received email's body, which Resend's webhook does not carry", async () => {
    const { server, url, seen } = await standIn((_req, res) =>
      json(res, 200, { id: 'in_1', text: 'Thanks!', html: null, headers: { 'in-reply-to': '<a@b>' } }),
    );
    try {
      const got = await new ResendEmailProvider('re_key', url).fetchReceivedEmail('in_1');
      expect(got).toEqual({ text: 'Thanks!', html: null, headers: { 'in-reply-to': '<a@b>' } });
      expect(seen[0]).toMatchObject({ method: 'GET', path: '/emails/receiving/in_1', auth: 'Bearer re_key' });
    } finally {
      await close(server);
    }
  });
});
