// `npm run cli -- events export`: a workspace's events of a range written to a file as NDJSON, the lines of
// GET /api/v1/events/export (docs/rest.md#every-event-out-as-a-stream), gzipped when the file's name ends in .gz.
// Like `person export`, it starts the api's modules without listening.
import 'reflect-metadata';
import { createWriteStream, statSync } from 'node:fs';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import { NestFactory } from '@nestjs/core';
import type { AppConfig } from '@app/platform';
import { EventsExportService, ExportTally, parseExportRange } from '@app/events';
import { WorkspacesService } from '@app/workspaces';
import { ApiModule } from './api.module';

interface ExportAsked {
  slug: string;
  from: string;
  to: string;
  after?: string;
  file: string;
}

export async function exportEventsToFile(config: AppConfig, asked: ExportAsked) {
  const range = parseExportRange({ from: asked.from, to: asked.to, after: asked.after });
  const app = await NestFactory.createApplicationContext(ApiModule.forRoot(config), { logger: false });
  try {
    const workspaceId = await app.get(WorkspacesService).idOfSlug(asked.slug);
    const chunks = app.get(EventsExportService).chunks(workspaceId, range);
    const tally = { lines: 0, cursor: asked.after ?? null };
    const counted = Readable.from(counting(chunks, tally), { objectMode: false, highWaterMark: 1 << 16 });
    const gzip: Transform[] = asked.file.endsWith('.gz')
      ? [createGzip({ level: constants.Z_BEST_SPEED, chunkSize: 1 << 16 })]
      : [];
    await pipeline([counted, ...gzip, createWriteStream(asked.file)]);
    return { ok: true, file: asked.file, lines: tally.lines, bytes: statSync(asked.file).size, cursor: tally.cursor };
  } finally {
    await app.close();
  }
}

/** The chunks as they are, counting their lines and keeping the last line's cursor (to resume with --after). */
async function* counting(chunks: AsyncGenerator<Buffer>, tally: { lines: number; cursor: string | null }) {
  const seen = new ExportTally();
  for await (const chunk of chunks) {
    seen.saw(chunk);
    tally.lines = seen.lines;
    tally.cursor = seen.cursor() ?? tally.cursor;
    yield chunk;
  }
}
