// A webhook receiver on 127.0.0.1 for end-to-end tests: records every post and answers each with
// what `answer` says (a status, or nothing at all for null).
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: any;
  answered: number | null;
}

export async function receiver(answer: (n: number, req: IncomingMessage, res: ServerResponse) => number | null | void = () => 200) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const entry: Received = { path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw || 'null'), answered: null };
      received.push(entry);
      const status = answer(received.length, req, res);
      if (typeof status === 'number') {
        entry.answered = status;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${received.length}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
