// The SMTP test server: a real SMTP server on 127.0.0.1 (or the address given) that keeps every mail it is given.
import { SMTPServer } from 'smtp-server';
import { freePort } from '@app/platform';

export interface Mail {
  to: string[];
  raw: string;
}

export interface Smtp {
  url: string;
  received: Mail[];
  close(): Promise<void>;
}

export async function smtpServer(received: Mail[] = [], host = '127.0.0.1'): Promise<Smtp> {
  const port = await freePort();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // A client still connected when the file ends (the app's pooled connection, while the app is still up) is
    // dropped after a second; smtp-server's own default waits 30 s, jest's whole budget for the hook.
    closeTimeout: 1000,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(port, host, r));
  return { url: `smtp://${host}:${port}`, received, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}

/** One part of a received mail (text/plain, text/html), its transfer encoding undone; undefined when it has none. */
export function mailPart(mail: Mail, type: string): string | undefined {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(mail.raw)?.[1];
  const parts = boundary ? mail.raw.split(`--${boundary}`) : [mail.raw];
  for (const part of parts) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    if (!new RegExp(`^content-type:\\s*${type}\\b`, 'im').test(head)) continue;
    const body = part.slice(split + 4).replace(/\r\n$/, '');
    const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(head)?.[1].toLowerCase();
    if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
    if (encoding !== 'quoted-printable') return body;
    const lines = body.replace(/=\r\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      const hex = lines.slice(i + 1, i + 3);
      if (lines[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else bytes.push(lines.charCodeAt(i));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return undefined;
}

/** The server of a test file (or describe block), up before its tests, down after; received fills as mail comes. */
export function useSmtp(): Smtp {
  const handle = { received: [] as Mail[] } as Smtp;
  beforeAll(async () => {
    const { url, close } = await smtpServer(handle.received);
    Object.assign(handle, { url, close });
  });
  afterAll(() => handle.close?.());
  return handle;
}
