// The operator CLI (docs/operations.md#the-operator-cli; stable: scripts rely on it). Each command prints exactly one
// JSON line; `--help` and `help COMMAND` print usage text. `npm run cli` runs the compiled JavaScript
// (scripts/run.js), and through the operator entry of workspaces it loads no Nest, TypeORM or Redis: a call
// costs a few hundred milliseconds (bench/RESULTS.md).
import { join, resolve } from 'node:path';
import { parseArgs as parseNodeArgs, ParseArgsConfig } from 'node:util';
// Not '@app/workspaces': its index loads the whole service; this entry holds what the CLI needs and no more.
import {
  commandDatabaseUrl,
  ConfigError,
  databaseUnreachable,
  developmentAppSecret,
  loadConfig,
  loadDotEnv,
  MembersService,
  openOperatorSession,
  Refusal,
  SHELL_ACTOR,
  WorkspacesService,
} from '@app/workspaces/operator';
import { MIGRATIONS } from '@app/schema';
import type { AppConfig } from '@app/platform/plain';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | string[] | undefined>;

interface Command {
  usage: string;
  about: string;
  options: Options;
  required: string[];
  run(
    services: { workspaces: WorkspacesService; members: MembersService },
    values: Values,
    config: AppConfig,
  ): Promise<unknown>;
}

const text = (v: Values, name: string) => v[name] as string;

export const COMMANDS: Record<string, Command> = {
  'workspace create': {
    usage: 'workspace create --slug SLUG --owner EMAIL [--origin ORIGIN]... [--web]',
    about:
      "Creates a workspace with its owner; prints its public key, the owner's secret key (shown once) and its " +
      'public address. --web makes a web-app workspace (no Downloader stage).',
    options: {
      slug: { type: 'string' },
      owner: { type: 'string' },
      origin: { type: 'string', multiple: true },
      web: { type: 'boolean' },
    },
    required: ['slug', 'owner'],
    run: ({ workspaces: s }, v) =>
      s.create({
        slug: text(v, 'slug'),
        owner: text(v, 'owner'),
        origins: (v.origin as string[]) ?? [],
        web: v.web === true,
      }),
  },
  'workspace list': {
    usage: 'workspace list',
    about: 'Lists every workspace with its public key and public address.',
    options: {},
    required: [],
    run: async ({ workspaces: s }) => ({ workspaces: await s.list() }),
  },
  'key create': {
    usage: 'key create --workspace SLUG --member EMAIL',
    about: 'Creates a secret key acting as the member (added as a member when new); the key is shown once.',
    options: { workspace: { type: 'string' }, member: { type: 'string' } },
    required: ['workspace', 'member'],
    run: async ({ members }, v) => {
      const created = await members.createKey(text(v, 'workspace'), text(v, 'member'));
      return {
        workspace: created.workspace,
        member: created.member,
        keyId: created.keyId,
        secretKey: created.secretKey,
      };
    },
  },
  'key list': {
    usage: 'key list --workspace SLUG',
    about: "Lists a workspace's keys by id, member and hint (the last four characters); never a secret.",
    options: { workspace: { type: 'string' } },
    required: ['workspace'],
    run: async ({ workspaces: s }, v) => ({ keys: await s.listKeys(text(v, 'workspace')) }),
  },
  'member remove': {
    usage: 'member remove --workspace SLUG --member EMAIL',
    about: 'Removes a member; their keys are refused from then on.',
    options: { workspace: { type: 'string' }, member: { type: 'string' } },
    required: ['workspace', 'member'],
    run: ({ members }, v) => members.remove(SHELL_ACTOR, text(v, 'workspace'), text(v, 'member')),
  },
  'person export': {
    usage: 'person export --workspace SLUG --person ID_OR_EMAIL --out FILE',
    about:
      'Writes everything held about one person (record, identities, consent, timeline, messages, runs, ' +
      'deliveries) to FILE as one JSON document, for a data request.',
    options: { workspace: { type: 'string' }, person: { type: 'string' }, out: { type: 'string' } },
    required: ['workspace', 'person', 'out'],
    run: async (_services, v, config) => {
      // Loaded only here: the rest of the CLI stays free of Nest.
      const { exportPersonToFile } = await import('./person-export');
      return exportPersonToFile(config, text(v, 'workspace'), text(v, 'person'), resolve(text(v, 'out')));
    },
  },
  'events export': {
    usage: 'events export --workspace SLUG --from WHEN --to WHEN [--after CURSOR] --out FILE',
    about:
      'Writes every timeline event of [from, to) to FILE as NDJSON, the lines of GET /api/v1/events/export ' +
      '(gzipped when FILE ends in .gz); prints the lines written and the last cursor, for --after to resume.',
    options: {
      workspace: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      after: { type: 'string' },
      out: { type: 'string' },
    },
    required: ['workspace', 'from', 'to', 'out'],
    run: async (_services, v, config) => {
      const { exportEventsToFile } = await import('./events-export');
      return exportEventsToFile(config, {
        slug: text(v, 'workspace'),
        from: text(v, 'from'),
        to: text(v, 'to'),
        after: v.after as string | undefined,
        file: resolve(text(v, 'out')),
      });
    },
  },
  'charts rebuild': {
    usage: 'charts rebuild',
    about:
      'Recomputes every chart rollup from the events, the people sketches of every day included ' +
      '(docs/decisions.md#charts-from-rollups); folds wait while it runs. Prints the rollup rows written.',
    options: {},
    required: [],
    run: async (_services, _values, config) => {
      const { connectionConfig, TargetedClient } = await import('@app/platform/plain');
      const { clientTransaction, rebuildRollups } = await import('@app/events/chart-rollups');
      const client = new TargetedClient(connectionConfig(config.databaseUrl));
      await client.connect();
      try {
        return { rebuilt: true, rollupRows: await rebuildRollups(clientTransaction(client)) };
      } finally {
        await client.end();
      }
    },
  },
};

const PROGRAM = 'npm run -s cli --';

export function usage(name?: string): string {
  const command = name ? COMMANDS[name] : undefined;
  if (command) return `Usage: ${PROGRAM} ${command.usage}\n\n${command.about}\n`;
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage}`);
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...lines,
    '  help [COMMAND]',
    '',
    'Each command prints one JSON line; a refusal is {"ok":false,"error":…,"message":…} and exits 1.',
    'The database is DATABASE_URL, else the embedded one a running `npm start` uses; addresses follow BASE_URL ' +
      '(else PORT).',
    '',
  ].join('\n');
}

export type Parsed = { help: string } | { command: Command; values: Values };

/** The command and its options, or the help text asked for; a mistake is a Refusal naming the fix. */
export function parseCommand(argv: string[]): Parsed {
  const words: string[] = [];
  while (words.length < 2 && argv[words.length] && !argv[words.length].startsWith('-')) words.push(argv[words.length]);
  const rest = argv.slice(words.length);
  if (words[0] === 'help' || (!words.length && (rest.includes('--help') || rest.includes('-h') || !rest.length))) {
    const asked = words[0] === 'help' ? argv.slice(1, 3).join(' ') : '';
    if (asked && !COMMANDS[asked])
      throw new Refusal(
        'invalid_field',
        `"${asked}" is not a command: use one of ${Object.keys(COMMANDS).join(', ')}.`,
      );
    return { help: usage(asked || undefined) };
  }
  const name = words.join(' ');
  const command = COMMANDS[name];
  if (!command)
    throw new Refusal(
      'invalid_field',
      `"${name}" is not a command: use one of ${Object.keys(COMMANDS).join(', ')} (or --help).`,
    );
  if (rest.includes('--help') || rest.includes('-h')) return { help: usage(name) };
  let values: Values;
  try {
    values = parseNodeArgs({ args: rest, options: command.options, strict: true, allowPositionals: false })
      .values as Values;
  } catch (error) {
    throw new Refusal(
      'invalid_field',
      `${(error as Error).message.split('\n')[0].replace(/\.$/, '')}: usage is ${command.usage}.`,
    );
  }
  const missing = command.required.find((option) => !values[option]);
  if (missing) throw new Refusal('invalid_field', `--${missing} is required: usage is ${command.usage}.`);
  return { command, values };
}

async function main(): Promise<number> {
  const root = resolve(__dirname, '../../..').replace(/\/dist$/, '');
  const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
  let databaseUrl: string | undefined;
  try {
    const parsed = parseCommand(process.argv.slice(2));
    if ('help' in parsed) {
      process.stdout.write(parsed.help);
      return 0;
    }
    loadDotEnv();
    const production = process.env.NODE_ENV === 'production';
    const config = loadConfig(process.env, {
      databaseUrl: await commandDatabaseUrl(process.env, join(root, '.data')),
      appSecret: process.env.APP_SECRET || (production ? undefined : developmentAppSecret(join(root, '.data'))),
    });
    databaseUrl = config.databaseUrl;
    const session = await openOperatorSession(config, MIGRATIONS);
    try {
      print(await parsed.command.run(session, parsed.values, config));
      return 0;
    } finally {
      await session.close();
    }
  } catch (error) {
    const unreachable = databaseUrl ? databaseUnreachable(error, databaseUrl) : null;
    if (error instanceof Refusal) print(error.toBody());
    else if (error instanceof ConfigError || unreachable)
      print({ ok: false, error: 'invalid_config', message: (unreachable ?? (error as Error)).message });
    else print({ ok: false, error: 'server_error', message: (error as Error).message });
    return 1;
  }
}

if (require.main === module) void main().then((code) => process.exit(code));
