// `npm run cli -- person export`: one person's export written to a file. The operator CLI
// loads no Nest; this command alone starts the api's modules without listening (about two seconds),
// since the export is every context's part, each through its registered participant.
import 'reflect-metadata';
import { createWriteStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NestFactory } from '@nestjs/core';
import type { AppConfig } from '@app/platform';
import { PersonDataService } from '@app/people';
import { WorkspacesService } from '@app/workspaces';
import { ApiModule } from './api.module';

export async function exportPersonToFile(config: AppConfig, slug: string, who: string, file: string) {
  const app = await NestFactory.createApplicationContext(ApiModule.forRoot(config), { logger: false });
  try {
    const workspaceId = await app.get(WorkspacesService).idOfSlug(slug);
    const personData = app.get(PersonDataService);
    const parts = await personData.exportOf(workspaceId, who);
    await pipeline(Readable.from(personData.exportText(parts)), createWriteStream(file));
    return { ok: true, person: parts.person.id, file, bytes: statSync(file).size };
  } finally {
    await app.close();
  }
}
