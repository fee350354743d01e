// npm run schema — writes the GraphQL admin API's schema to schema.graphql and the JSON Schemas of the
// REST bodies and answers to apps/api/src/openapi.schemas.json (test/schema.e2e-spec.ts and
// test/openapi.e2e-spec.ts fail when a file and the code differ).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildAdminSchema } from '../apps/api/src/schema';
import { SCHEMAS_FILE, wireSchemasText } from './wire-schemas';

writeFileSync(SCHEMAS_FILE, wireSchemasText());
process.stdout.write(`${SCHEMAS_FILE} written\n`);
buildAdminSchema()
  .then((sdl) => {
    writeFileSync(resolve(__dirname, '../schema.graphql'), sdl);
    process.stdout.write(`schema.graphql written (${sdl.split('\n').length} lines)\n`);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
