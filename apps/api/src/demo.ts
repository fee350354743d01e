// docs/operations.md#development-npm-start: the first start on an empty database (outside production) creates
// workspace demo, allowed origins http://localhost:*; main.ts prints its keys once (startup-box.ts).
import type { INestApplication } from '@nestjs/common';
import { CreatedWorkspace, WorkspacesRepository, WorkspacesService } from '@app/workspaces';
import { Refusal } from '@app/platform';

/** The demo workspace when this start created it, else null. */
export async function createDemoWorkspace(app: INestApplication): Promise<CreatedWorkspace | null> {
  if ((await app.get(WorkspacesRepository).countWorkspaces()) > 0) return null;
  try {
    return await app
      .get(WorkspacesService)
      .create({ slug: 'demo', owner: 'owner@demo.test', origins: ['http://localhost:*'] });
  } catch (error) {
    if (!(error instanceof Refusal && error.code === 'conflict')) throw error; // another api made it first
    return null;
  }
}
