// schema.graphql is the admin API's schema as the code builds it: run `npm run schema` after changing
// a resolver or a GraphQL type, and commit the file with the change.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { buildAdminSchema, printAdminSchema } from '../apps/api/src/schema';
import { useApp } from './harness';

const FILE = resolve(__dirname, '../schema.graphql');
const DRIFTED = 'schema.graphql differs from the code: run `npm run schema` and commit schema.graphql.';

const t = useApp();

function expectSame(actual: string, expected: string) {
  if (actual !== expected) throw new Error(DRIFTED);
}

describe('schema.graphql', () => {
  it('is what `npm run schema` prints from the code', async () => {
    expectSame(await buildAdminSchema(), readFileSync(FILE, 'utf8'));
  });

  it('is what the running api serves', () => {
    expectSame(printAdminSchema(t.app.get(GraphQLSchemaHost).schema), readFileSync(FILE, 'utf8'));
  });
});
