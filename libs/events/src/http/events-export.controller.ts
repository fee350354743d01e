// GET /api/v1/events/export (docs/rest.md#every-event-out-as-a-stream): every timeline row of a range as NDJSON, for
// a warehouse, with an owner's or admin's secret key; gzip when the client accepts it. The range and the key are
// checked and the first page read before the answer starts, so those refusals are the usual envelope; a failure
// after that can only cut the connection, and the client resumes from the last line it kept.
import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import { Auth, AuthContext, SecretKeyGuard } from '@app/workspaces';
import { Reference, schemaRef } from '@app/edge';
import { EventsExportService } from '../export/events-export.service';
import { parseExportRange, type WireEventsExportQuery } from '../export/export-range';

const NDJSON = 'application/x-ndjson';

/** True when Accept-Encoding takes gzip (or anything) with a weight above zero. */
export function acceptsGzip(header: string | undefined): boolean {
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (!q || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

@Controller()
export class EventsExportController {
  constructor(private readonly exports: EventsExportService) {}

  @Get('api/v1/events/export')
  @UseGuards(SecretKeyGuard)
  @Reference({
    operationId: 'exportEvents',
    summary: 'Every event of a range, as a stream',
    description:
      'Every timeline row whose occurred_at is in [from, to), as NDJSON: one JSON object a line (ExportedEvent: ' +
      "id, type, occurred_at, person_id, the person's identities as they are now, value, properties, detail, " +
      'source and cursor), in occurred_at order, ties by id. Rows of erased people and expired rows are never in ' +
      ('it. Gzipped when Accept-Encoding allows. A connection cut part-way ends without its last chunk; ask ' +
        'again with the same from and to and after set to the cursor of the last whole line kept. ') +
      "The key must be an owner's or admin's.",
    tag: 'events',
    caller: 'secret key',
    query: 'WireEventsExportQuery',
    answers: {
      200: {
        description: 'One ExportedEvent a line, each ending in a newline; none when the range holds none.',
        mediaType: NDJSON,
        schema: { type: 'string', contentMediaType: NDJSON, contentSchema: schemaRef('ExportedEvent') },
      },
    },
    refuses: ['invalid_key', 'no_longer_a_member', 'forbidden', 'invalid_field'],
  })
  async export(
    @Auth() auth: AuthContext,
    @Query() query: Partial<Record<keyof WireEventsExportQuery, unknown>>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const range = parseExportRange(query);
    this.exports.allow(auth);
    const chunks = this.exports.chunks(auth.workspaceId, range);
    const first = await chunks.next();
    const gzip = acceptsGzip(req.headers['accept-encoding']);
    res.status(200).setHeader('Content-Type', `${NDJSON}; charset=utf-8`).setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', 'no-store');
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    const body = Readable.from(resumed(first, chunks), { objectMode: false, highWaterMark: 1 << 16 });
    const steps: Array<Readable | Transform> = gzip
      ? [body, createGzip({ level: constants.Z_BEST_SPEED, chunkSize: 1 << 16 })]
      : [body];
    await pipeline([...steps, res]).catch((error: Error) => {
      // Headers are sent: a failure part-way (or a client gone) can only end the connection.
      res.destroy(error);
    });
  }
}

/** The chunks with the first, already read, in front. */
async function* resumed(first: IteratorResult<Buffer>, rest: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}
