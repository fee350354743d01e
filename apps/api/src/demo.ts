// decisions.md section 1: the first start on an empty database (outside production) creates
// workspace demo, allowed origins http://localhost:*, and prints its keys and public address once.
import type { INestApplication } from '@nestjs/common';
import { Refusal, WorkspacesRepository, WorkspacesService } from '@app/core';

export async function createDemoWorkspace(app: INestApplication): Promise<void> {
  if ((await app.get(WorkspacesRepository).countWorkspaces()) > 0) return;
  try {
    const demo = await app.get(WorkspacesService).create({ slug: 'demo', owner: 'owner@demo.test', origins: ['http://localhost:*'] });
    console.log(
      [
        'Created workspace "demo" (shown once, keep the secret key):',
        `  public key:      ${demo.publicKey}`,
        `  secret key:      ${demo.secretKey}`,
        `  public address:  ${demo.publicBaseUrl}`,
      ].join('\n'),
    );
  } catch (error) {
    if (!(error instanceof Refusal && error.code === 'conflict')) throw error; // another api made it first
  }
}
