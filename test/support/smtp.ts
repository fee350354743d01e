// The SMTP test server: a real SMTP server on 127.0.0.1 that keeps every mail it is given.
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

export async function smtpServer(received: Mail[] = []): Promise<Smtp> {
  const port = await freePort();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(port, '127.0.0.1', r));
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((r) => smtp.close(() => r())) };
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
