import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createEmailProvider } from './email-provider';
import { SmtpEmailProvider, smtpOptions } from './smtp.provider';

interface Received {
  rcpt: string[];
  raw: string;
}

async function startServer(
  options: Record<string, unknown> = {},
): Promise<{ server: SMTPServer; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    ...options,
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ rcpt: session.envelope.rcptTo.map((r) => r.address), raw });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port, received };
}

const mail = {
  from: 'Acme <hi@acme.test>',
  to: 'ada@example.com',
  subject: 'Welcome, Ada',
  html: '<p>Hello <strong>Ada</strong></p>',
  text: 'Hello Ada, plain version',
  headers: { 'X-Lifeline-Message': 'msg_1' },
};

describe('SMTP provider: nodemailer against a real SMTP server on 127.0.0.1', () => {
  it('delivers to the recipient with the subject, an HTML part and a text part, and returns the Message-ID without brackets', async () => {
    const { server, port, received } = await startServer({ hideSTARTTLS: true });
    const provider = new SmtpEmailProvider(`smtp://127.0.0.1:${port}`);
    try {
      const { providerId } = await provider.send(mail);
      expect(received).toHaveLength(1);
      expect(received[0].rcpt).toEqual(['ada@example.com']);
      const raw = received[0].raw;
      expect(raw).toMatch(/^Subject: Welcome, Ada$/m);
      expect(raw).toMatch(/Content-Type: text\/html/);
      expect(raw).toMatch(/Content-Type: text\/plain/);
      expect(raw).toContain('<p>Hello <strong>Ada</strong></p>');
      expect(raw).toContain('Hello Ada, plain version');
      expect(raw).toMatch(/^X-Lifeline-Message: msg_1$/m);
      expect(providerId).not.toMatch(/[<>]/);
      expect(raw).toContain(`Message-ID: <${providerId}>`);
    } finally {
      await provider.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('does not attempt STARTTLS against a loopback server that offers it with a certificate nobody can verify', async () => {
    const { server, port, received } = await startServer();
    const provider = new SmtpEmailProvider(`smtp://127.0.0.1:${port}`);
    try {
      await provider.send(mail);
      expect(received).toHaveLength(1);
    } finally {
      await provider.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('keeps STARTTLS for a remote server, and lets the URL choose for a loopback one', () => {
    expect(smtpOptions('smtp://mail.acme.test:587')).not.toHaveProperty('ignoreTLS');
    expect(smtpOptions('smtps://127.0.0.1:465')).not.toHaveProperty('ignoreTLS');
    expect(smtpOptions('smtp://127.0.0.1:2525?requireTLS=true')).not.toHaveProperty('ignoreTLS');
    expect(smtpOptions('smtp://localhost:2525')).toMatchObject({ ignoreTLS: true, pool: true });
  });

  it('rejects with an Error when the server refuses the recipient', async () => {
    const { server, port } = await startServer({
      hideSTARTTLS: true,
      onRcptTo: (_address: unknown, _session: unknown, done: (err?: Error) => void) =>
        done(Object.assign(new Error('No such mailbox'), { responseCode: 550 })),
    });
    const provider = new SmtpEmailProvider(`smtp://127.0.0.1:${port}`);
    try {
      await expect(provider.send(mail)).rejects.toThrow(/550|No such mailbox/);
    } finally {
      await provider.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('createEmailProvider: which provider the settings choose', () => {
  it('is null when neither SMTP_URL nor RESEND_API_KEY is set', () => {
    expect(createEmailProvider({})).toBeNull();
    expect(createEmailProvider({ smtpUrl: null, resendApiKey: null })).toBeNull();
  });
  it('is SMTP with only SMTP_URL', async () => {
    const provider = createEmailProvider({ smtpUrl: 'smtp://127.0.0.1:1' });
    expect(provider?.name).toBe('smtp');
    await provider?.close?.();
  });
  it('is Resend with only RESEND_API_KEY, and Resend when both are set', () => {
    expect(createEmailProvider({ resendApiKey: 're_test' })?.name).toBe('resend');
    expect(createEmailProvider({ resendApiKey: 're_test', smtpUrl: 'smtp://127.0.0.1:1' })?.name).toBe('resend');
  });
});
