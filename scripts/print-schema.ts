// npm run schema — writes the GraphQL admin API's schema to schema.graphql (test/schema.e2e-spec.ts
// fails when the file and the code differ).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildAdminSchema } from '../apps/api/src/schema';

buildAdminSchema()
  .then((sdl) => {
    writeFileSync(resolve(__dirname, '../schema.graphql'), sdl);
    process.stdout.write(`schema.graphql written (${sdl.split('\n').length} lines)\n`);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
