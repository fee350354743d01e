// Answers Node's own HTTP refusals (a header or request line over the size limit, a request that is
// not HTTP, a request that took too long to arrive) in the refusal envelope; Node's default writes
// a bare status line with an empty body. Nest never sees these requests: they fail while parsing.
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Refusal } from '@app/platform';

export function refusalForClientError(code: string | undefined): Refusal {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new Refusal(
      'headers_too_large',
      'The request line and headers are over 16 KB: send a shorter query string, fewer cookies or smaller headers.',
    );
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new Refusal('request_timeout', 'The request took too long to arrive: send it again.');
  return new Refusal('invalid_field', 'The request is not valid HTTP/1.1: check the request line and headers.', {
    field: 'request',
  });
}

export function answerClientErrorsInEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const refusal = refusalForClientError(error.code);
    const body = JSON.stringify(refusal.toBody());
    socket.end(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
