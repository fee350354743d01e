// The admin API's schema as SDL, built from the api module's resolvers without starting the app (no
// database, no Redis): `npm run schema` writes it to schema.graphql, and a test fails when it drifts.
import 'reflect-metadata';
import { DynamicModule, Type } from '@nestjs/common';
import { ENTRY_PROVIDER_WATERMARK, MODULE_METADATA } from '@nestjs/common/constants';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { loadConfig } from '@app/platform';
import { ApiModule } from './api.module';

type ModuleRef = Type<unknown> | DynamicModule | Promise<DynamicModule>;

function isResolver(provider: unknown): provider is Type<unknown> {
  if (typeof provider !== 'function') return false;
  const keys = Reflect.getMetadataKeys(provider).map(String);
  return keys.includes(ENTRY_PROVIDER_WATERMARK) && keys.some((k) => k.startsWith('graphql:'));
}

/** Every resolver the api module and the modules it imports provide. */
function resolversOf(root: ModuleRef, seen = new Set<unknown>()): Type<unknown>[] {
  if (root instanceof Promise || seen.has(root)) return [];
  seen.add(root);
  const cls = 'module' in root ? root.module : root;
  const dynamic = 'module' in root ? root : {};
  const providers = [
    ...(Reflect.getMetadata(MODULE_METADATA.PROVIDERS, cls) ?? []),
    ...((dynamic as DynamicModule).providers ?? []),
  ];
  const imports: ModuleRef[] = [
    ...(Reflect.getMetadata(MODULE_METADATA.IMPORTS, cls) ?? []),
    ...((dynamic as DynamicModule).imports ?? []),
  ];
  return [...providers.filter(isResolver), ...imports.flatMap((m) => resolversOf(m, seen))];
}

/** The SDL the running api serves (sorted, as the api module sorts it). */
export function printAdminSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

export async function buildAdminSchema(): Promise<string> {
  // Only for reading the module tree: nothing is connected or started.
  const config = loadConfig({
    NODE_ENV: 'development',
    APP_SECRET: 'schema-only-0123456789-0123456789',
    DATABASE_URL: 'postgres://unused/unused',
  });
  const resolvers = [...new Set(resolversOf(ApiModule.forRoot(config)))];
  const app = await NestFactory.create(GraphQLSchemaBuilderModule, { logger: false });
  try {
    await app.init();
    return printAdminSchema(await app.get(GraphQLSchemaFactory).create(resolvers));
  } finally {
    await app.close();
  }
}
