// A webhook receiver on 127.0.0.1 for end-to-end tests: it keeps every post (raw bytes, headers, arrival
// time) and answers what the test says.
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: any;
  answered: number | null;
  /** Date.now() when the whole body had arrived. */
  at: number;
}

/** A receiver on 127.0.0.1 (or `host`) that answers each post with what `answer` says (or never, for null). */
export async function receiver(
  answer: (n: number, req: IncomingMessage, res: ServerResponse) => number | null | void = () => 200,
  host = '127.0.0.1',
) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const entry: Received = {
        path: req.url ?? '',
        headers: req.headers,
        raw,
        body: JSON.parse(raw || 'null'),
        answered: null,
        at: Date.now(),
      };
      received.push(entry);
      const status = answer(received.length, req, res);
      if (typeof status === 'number') {
        entry.answered = status;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${received.length}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
