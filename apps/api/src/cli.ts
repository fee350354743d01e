// Operator CLI of decisions.md section 1 (stable: scripts rely on it). Prints exactly one JSON line.
//   npm run cli -- workspace create --slug acme --owner owner@acme.test [--origin https://acme.test]... [--web]
//   npm run cli -- key create --workspace acme --member dev@acme.test
//   npm run cli -- member remove --workspace acme --member dev@acme.test
import 'reflect-metadata';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  ApiKeyEntity,
  AppConfig,
  CONFIG,
  ConfigError,
  dataSourceOptions,
  developmentAppSecret,
  loadConfig,
  MemberEntity,
  migrate,
  Refusal,
  WorkspaceEntity,
  WorkspacesRepository,
  WorkspacesService,
  MembersService,
  SHELL_ACTOR,
} from '@app/core';

@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        TypeOrmModule.forRoot({ ...dataSourceOptions(config), autoLoadEntities: true, extra: { max: 1 } }),
        TypeOrmModule.forFeature([WorkspaceEntity, MemberEntity, ApiKeyEntity]),
      ],
      providers: [{ provide: CONFIG, useValue: config }, WorkspacesRepository, WorkspacesService, MembersService],
    };
  }
}

export interface CliArgs {
  words: string[];
  options: Record<string, string[]>;
  flags: Set<string>;
}

export function parseArgs(argv: string[]): CliArgs {
  const words: string[] = [];
  const options: Record<string, string[]> = {};
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2);
    const next = argv[i + 1];
    if (inline !== undefined) (options[name] ??= []).push(inline);
    else if (next !== undefined && !next.startsWith('--')) (options[name] ??= []).push(argv[++i]);
    else flags.add(name);
  }
  return { words, options, flags };
}

function required(args: CliArgs, name: string): string {
  const value = args.options[name]?.[0];
  if (!value) throw new Refusal('invalid_field', `--${name} is required.`);
  return value;
}

async function run(service: WorkspacesService, members: MembersService, args: CliArgs): Promise<unknown> {
  const command = args.words.slice(0, 2).join(' ');
  switch (command) {
    case 'workspace create':
      return service.create({
        slug: required(args, 'slug'),
        owner: required(args, 'owner'),
        origins: args.options.origin ?? [],
        web: args.flags.has('web'),
      });
    case 'key create': {
      const created = await members.createKey(required(args, 'workspace'), required(args, 'member'));
      return { workspace: created.workspace, member: created.member, keyId: created.keyId, secretKey: created.secretKey };
    }
    case 'member remove':
      return members.remove(SHELL_ACTOR, required(args, 'workspace'), required(args, 'member'));
    default:
      throw new Refusal('invalid_field', 'Use one of: workspace create, key create, member remove.');
  }
}

/** The running service's embedded PGlite (if any) is reachable through the address it wrote down. */
function databaseUrl(root: string): string | undefined {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const file = join(root, '.data', 'pg.url');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

async function main(): Promise<number> {
  const root = resolve(__dirname, '../../..');
  const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
  try {
    const production = process.env.NODE_ENV === 'production';
    const config = loadConfig(process.env, {
      databaseUrl: databaseUrl(root),
      appSecret: process.env.APP_SECRET || (production ? undefined : developmentAppSecret(join(root, '.data'))),
    });
    await migrate(config);
    const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false });
    try {
      print(await run(app.get(WorkspacesService), app.get(MembersService), parseArgs(process.argv.slice(2))));
      return 0;
    } finally {
      await app.close();
    }
  } catch (error) {
    if (error instanceof Refusal) print(error.toBody());
    else if (error instanceof ConfigError) print({ ok: false, error: 'invalid_config', message: error.message });
    else print({ ok: false, error: 'server_error', message: (error as Error).message });
    return 1;
  }
}

if (require.main === module) void main().then((code) => process.exit(code));
