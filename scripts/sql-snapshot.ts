// npm run sql:snapshot — writes each statement assembled from several parts (the ingest's load and write, the
// outbox relay's reads, the webhook delivery claims and settlements, an erasure's removals) to test/sql/<name>.sql,
// built by the code that sends it (docs/architecture.md#sql-snapshots). test/sql-snapshot.spec.ts fails when a file
// and the code differ; test/medium/sql-prepare.spec.ts prepares each statement against the migrated schema.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { AutomationRelayService, AutomationsDataParticipant } from '@app/automations';
import {
  EventsDataParticipant,
  INGEST_LOAD,
  INGEST_WRITE_TOUCHES,
  inputsOf,
  parseDefinition,
  refreshMembers,
} from '@app/events';
import { MessagingDataParticipant } from '@app/messaging';
import {
  hearingOf,
  OutboxDataParticipant,
  OutboxRelayService,
  RELAY_HAPPENINGS,
  RELAY_NEXT,
  repairAfterRestore,
} from '@app/outbox';
import { PeopleDataParticipant } from '@app/people';
import type { AppConfig, PersonErasure } from '@app/platform';
import {
  DeliveriesRepository,
  DeliveryClaimsRepository,
  WebhookRelayService,
  WebhooksDataParticipant,
} from '@app/webhooks';

export const SQL_DIR = join(__dirname, '..', 'test', 'sql');

export interface SqlSnapshot {
  /** Its file's name under test/sql. */
  file: string;
  /** What builds the statement, as the file's first comment names it. */
  builtBy: string;
  /** Lines the comment adds: the shape snapshotted, when the code builds more than one. */
  note?: string[];
  /** The statement as its builder makes it. */
  sql: string;
}

type Db = DataSource & EntityManager;

/**
 * Runs `work` on a stand-in for the `query` of a DataSource or EntityManager that keeps the statements it is handed,
 * in order, and runs none: each is answered with the next of `answers` (no rows when there are none left). It reads
 * the statements that methods build and send from inside themselves, as they send them.
 */
async function sentBy(work: (db: Db) => Promise<unknown>, answers: unknown[] = []): Promise<string[]> {
  const statements: string[] = [];
  const query = (sql: string) => {
    if (statements.length >= 20) throw new Error(`more than 20 statements, the last: ${sql}`);
    statements.push(sql);
    return Promise.resolve(answers[statements.length - 1] ?? []);
  };
  await work({ query } as unknown as Db);
  return statements;
}

/** The statements one call sent, each under its file's name (null: a statement not snapshotted, such as a SET). */
function named(builtBy: string, statements: string[], files: Array<string | null>, note?: string[]): SqlSnapshot[] {
  if (statements.length !== files.length)
    throw new Error(`${builtBy} sent ${statements.length} statements; scripts/sql-snapshot.ts names ${files.length}`);
  return files.flatMap((file, i) => (file ? [{ file, builtBy, note, sql: statements[i] }] : []));
}

function ingest(): SqlSnapshot[] {
  return [
    {
      file: 'ingest-load.sql',
      builtBy: 'INGEST_LOAD (@app/events), with peopleKeysNameCtes and PERSON_COLUMNS (@app/people)',
      sql: INGEST_LOAD,
    },
    {
      file: 'ingest-write.sql',
      builtBy:
        'INGEST_WRITE_TOUCHES (@app/events: ingestWrite, TIMELINE_COLUMNS and TIMELINE_LEAN_RECORD), with ' +
        'peopleWriteCtes and suppressionCheckCte (@app/people), ' +
        'outboxWriteCte (@app/outbox) and keyRecheckCte (@app/workspaces)',
      note: [
        'The full shape, every part present: IngestRepository.write sends it when a post retouches rows written',
        'before or names new touches, and otherwise INGEST_WRITE, the same without retouched and named_touches.',
        'Rows, people and happenings travel in the jsonb document $1, so their number never changes the text.',
      ],
      sql: INGEST_WRITE_TOUCHES,
    },
  ];
}

async function relay(): Promise<SqlSnapshot[]> {
  // A handler's hearing is a field: the services it sends with are not needed to read it.
  const webhooksHearing = new WebhookRelayService(null as never, null as never, null as never);
  const automationsHearing = new AutomationRelayService(null as never, null as never, null as never);
  const on = (db: Db) => new OutboxRelayService(db, {} as AppConfig);
  const since = new Date('2026-01-01T00:00:00Z');
  const markAhead = [{ mark_xid: '9', mark_id: '1', top_xid: '9', next_xid: '5' }];
  const rowsAhead = [{ mark_xid: '3', mark_id: '1', top_xid: '9', next_xid: '5' }];
  const done = [{ relayed: 0, due: 0, written_here: 0 }];
  return [
    { file: 'relay-next.sql', builtBy: 'RELAY_NEXT (@app/outbox)', sql: RELAY_NEXT },
    {
      file: 'relay-hearing.sql',
      builtBy: 'hearingOf (@app/outbox) over the hearing of WebhookRelayService and AutomationRelayService',
      note: ['The handlers in the order the worker registers them: webhooks, then automations.'],
      sql: hearingOf([webhooksHearing, automationsHearing]),
    },
    {
      file: 'relay-happenings.sql',
      builtBy: 'RELAY_HAPPENINGS (@app/outbox), with HAPPENINGS_FROM',
      sql: RELAY_HAPPENINGS,
    },
    ...named(
      'OutboxRelayService.relayedBetween (@app/outbox), with HAPPENINGS_FROM and RELAY_MARK',
      await sentBy((db) => on(db).relayedBetween('wsp', since, since, null, 100)),
      ['relay-replay-read.sql'],
    ),
    ...named(
      'OutboxRelayService.deleteRelayedBefore (@app/outbox), with deleteInBatches (@app/platform) and RELAY_MARK',
      await sentBy((db) => on(db).deleteRelayedBefore(since), [[[], 0]]),
      ['relay-retention-delete.sql'],
    ),
    ...named(
      'repairAfterRestore (@app/outbox) as a relay pass that found nothing calls it',
      await sentBy((db) => repairAfterRestore(db, false), [markAhead, [], done]),
      ['relay-restore-lag.sql', null, 'relay-restore-repair-mark-ahead.sql'],
    ),
    ...named(
      'repairAfterRestore (@app/outbox) as a relay pass that found nothing calls it',
      await sentBy((db) => repairAfterRestore(db, false), [rowsAhead, [], done]),
      [null, null, 'relay-restore-repair-rows-ahead.sql'],
    ),
  ];
}

async function deliveries(): Promise<SqlSnapshot[]> {
  const by = (method: string, repository = 'DeliveryClaimsRepository') => `${repository}.${method} (@app/webhooks)`;
  const key = { workspaceId: 'wsp', deliveryId: 'dlv' };
  const delivery = {
    workspaceId: 'wsp',
    id: 'dlv',
    endpointId: 'whe',
    outboxId: '1',
    type: 'event',
    body: '{}',
    claimed: true,
  };
  const attempt = { number: 1, startedAt: new Date(0), ok: true, durationMs: 5, status: 200, nextDelayMs: null };
  return [
    ...named(
      by('insert', 'DeliveriesRepository'),
      await sentBy((db) => new DeliveriesRepository(db).insert(db, [delivery])),
      ['delivery-insert.sql'],
      ['A row marked claimed is stored with its first attempt claimed: one statement for every row of a pass.'],
    ),
    ...named(
      by('claim'),
      await sentBy((db) => new DeliveryClaimsRepository(db).claim('wsp', 'dlv')),
      ['delivery-claim.sql'],
      ['One statement for a batch of claims (GroupCommit).'],
    ),
    ...named(
      by('settle'),
      await sentBy((db) => new DeliveryClaimsRepository(db).settle('wsp', 'dlv', attempt)),
      ['delivery-settle.sql'],
      ['One statement for a batch of settlements (GroupCommit).'],
    ),
    ...named(by('release'), await sentBy((db) => new DeliveryClaimsRepository(db).release('wsp', 'dlv', 1, 1000)), [
      'delivery-release.sql',
    ]),
    ...named(by('releaseFirst'), await sentBy((db) => new DeliveryClaimsRepository(db).releaseFirst([key]), [[[]]]), [
      'delivery-release-first.sql',
    ]),
  ];
}

async function erasure(): Promise<SqlSnapshot[]> {
  const erasing: PersonErasure = { workspaceId: 'wsp', personIds: ['per'], values: ['ada@example.com'] };
  const erase = (participant: string, lib: string) => `${participant}.erase (${lib})`;
  return [
    ...named(
      erase('EventsDataParticipant', '@app/events'),
      await sentBy((db) => new EventsDataParticipant(db).erase(db, erasing)),
      ['erase-events.sql', 'erase-idempotency-keys.sql', 'erase-segment-members.sql', 'erase-event-touches.sql'],
    ),
    ...named(
      erase('MessagingDataParticipant', '@app/messaging'),
      await sentBy((db) => new MessagingDataParticipant(db).erase(db, erasing)),
      ['erase-messages.sql', 'erase-email-standings.sql', 'erase-broadcast-recipients.sql'],
    ),
    ...named(
      `${erase('OutboxDataParticipant', '@app/outbox')}, with jsonNamesAny (@app/platform)`,
      await sentBy((db) => new OutboxDataParticipant().erase(db, erasing), [[{ n: 0 }]]),
      ['erase-outbox-happenings.sql'],
    ),
    ...named(
      `${erase('WebhooksDataParticipant', '@app/webhooks')}, with jsonNamesAny (@app/platform)`,
      await sentBy((db) => new WebhooksDataParticipant(db).erase(db, erasing), [[[], 0]]),
      ['erase-deliveries.sql', 'erase-delivery-attempts.sql'],
    ),
    ...named(
      erase('AutomationsDataParticipant', '@app/automations'),
      await sentBy((db) => new AutomationsDataParticipant(db).erase(db, erasing)),
      ['erase-automation-runs.sql'],
    ),
    ...named(
      erase('PeopleDataParticipant', '@app/people'),
      await sentBy((db) => new PeopleDataParticipant(db).erase(db, erasing)),
      ['erase-subscriptions.sql', 'erase-earlier-consents.sql', 'erase-identities.sql', 'erase-people.sql'],
    ),
  ];
}

/** The live membership statement, for two segments whose conditions use every kind of the grammar. */
async function membership(): Promise<SqlSnapshot[]> {
  const condition = (raw: unknown) => parseDefinition(raw) as Exclude<ReturnType<typeof parseDefinition>, Error>;
  const segments = [
    {
      id: 'seg_a',
      name: 'Buyers on the list',
      filling: false,
      condition: condition({ all: [{ stage: ['purchaser', 'repeat'] }, { list: 'news' }, { engaged: true }] }),
    },
    {
      id: 'seg_b',
      name: 'Busy pros',
      filling: false,
      condition: condition({
        any: [
          { event: 'report_built', atLeast: 3, withinDays: 7 },
          { not: { event: 'signup', never: true } },
          { field: 'seats', gt: 5 },
          { firstTouch: 'source', equals: 'newsletter' },
        ],
      }),
    },
  ];
  const live = segments.map((s) => ({ ...s, inputs: inputsOf(s.condition) }));
  const pairs = { segmentIds: ['seg_a', 'seg_b'], personIds: ['per', 'per'], decided: [null, null] };
  const sent = await sentBy((db) => refreshMembers(db, 'wsp', live, pairs, new Date(0), false));
  return named(
    'refreshMembers (@app/events), with peopleRowsSql and subscribedNowSql (@app/people) and outboxInsertCte (@app/outbox)',
    sent,
    ['segment-refresh.sql'],
  );
}

/** Every snapshotted statement, built by the code that sends it. */
export async function sqlSnapshots(): Promise<SqlSnapshot[]> {
  return [...ingest(), ...(await relay()), ...(await deliveries()), ...(await erasure()), ...(await membership())];
}

/** The statement with its first line's leading space and the code's indentation of the others taken off. */
function dedented(sql: string): string {
  const lines = sql
    .replace(/^\s*\n/, '')
    .trimEnd()
    .split('\n');
  const indents = lines.slice(1).flatMap((line) => (line.trim() ? [line.length - line.trimStart().length] : []));
  const indent = Math.min(...indents, Infinity);
  return lines
    .map((line, i) => (i === 0 ? line.trimStart() : line.slice(Math.min(indent, line.length))).trimEnd())
    .join('\n');
}

/** A snapshot file's text: comments naming its builder, then the statement. */
export function snapshotText(snapshot: SqlSnapshot): string {
  const comment = [
    `Built by ${snapshot.builtBy}.`,
    ...(snapshot.note ?? []),
    'Written by npm run sql:snapshot (test/sql-snapshot.spec.ts fails when the code builds it otherwise).',
  ];
  return `${comment.flatMap(wrapped).join('\n')}\n${dedented(snapshot.sql)}\n`;
}

/** A comment line as SQL comments of at most 118 characters. */
function wrapped(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + word.length < 118) lines[last] += ` ${word}`;
    else lines.push(`-- ${word}`);
  }
  return lines;
}

async function main(): Promise<void> {
  const snapshots = await sqlSnapshots();
  const kept = new Set(snapshots.map((s) => s.file));
  mkdirSync(SQL_DIR, { recursive: true });
  for (const name of readdirSync(SQL_DIR)) if (name.endsWith('.sql') && !kept.has(name)) rmSync(join(SQL_DIR, name));
  for (const snapshot of snapshots) writeFileSync(join(SQL_DIR, snapshot.file), snapshotText(snapshot));
  process.stdout.write(`${snapshots.length} statements written to test/sql\n`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
