// The tables of the schema, their owners, and readers of the SQL in the libs' source (string and
// template literals), shared by test/table-owners.spec.ts and test/lib-structure.spec.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Every table of the schema and the lib that owns it. */
export const TABLE_OWNERS: Record<string, string> = {
  migrations: 'platform',
  workspaces: 'workspaces',
  members: 'workspaces',
  api_keys: 'workspaces',
  workspace_limits: 'workspaces',
  limit_peaks: 'workspaces',
  sessions: 'workspaces',
  sign_in_links: 'workspaces',
  oauth_clients: 'workspaces',
  oauth_codes: 'workspaces',
  connections: 'workspaces',
  connection_tokens: 'workspaces',
  outbox: 'outbox',
  outbox_relay: 'outbox',
  people: 'people',
  identities: 'people',
  lists: 'people',
  subscriptions: 'people',
  earlier_consents: 'people',
  suppressions: 'people',
  erasures: 'people',
  events: 'events',
  // Only while an old plain events table is converted to partitions (EventsByMonth1766300000000).
  events_conversion: 'events',
  events_plain: 'events',
  event_names: 'events',
  event_touches: 'events',
  idempotency_keys: 'events',
  heartbeat: 'events',
  // Chart rollups (ChartRollups1767200000001).
  events_rollup: 'events',
  events_rollup_mark: 'events',
  // People sketches (ChartPeopleRollups1767200000002).
  events_rollup_people: 'events',
  events_rollup_dirty: 'events',
  // Live segments (LiveSegments1767600000000).
  segments: 'events',
  segment_revisions: 'events',
  segment_members: 'events',
  segment_counts: 'events',
  templates: 'messaging',
  messages: 'messaging',
  email_standings: 'messaging',
  broadcasts: 'messaging',
  broadcast_recipients: 'messaging',
  door_receipts: 'edge',
  webhook_endpoints: 'webhooks',
  webhook_endpoint_health: 'webhooks',
  deliveries: 'webhooks',
  delivery_attempts: 'webhooks',
  webhook_replays: 'webhooks',
  automations: 'automations',
  automation_runs: 'automations',
  door_connections: 'integrations',
};

export const ROOT = join(__dirname, '..', '..');

/** The source files below `dir`, specs left out; migrations too unless asked for. */
export function sourceFiles(dir: string, withMigrations = false): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'migrations' && !withMigrations ? [] : sourceFiles(path, withMigrations);
    return /\.tsx?$/.test(path) && !/\.(spec|d)\.ts$/.test(path) ? [path] : [];
  });
}

/** The text of every string and template literal in a file (a template hole becomes `${}`, no name). */
export function literals(text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    else if (ts.isTemplateExpression(node))
      found.push([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('${}'));
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022, true));
  return found;
}

/** Entity classes to their tables, from `@Entity('table') export class Name`. */
export function entityTables(files: string[]): Map<string, string> {
  const tables = new Map<string, string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/@Entity\('(\w+)'\)\s*export class (\w+)/g))
      tables.set(match[2], match[1]);
  }
  return tables;
}

/** The tables a file writes, from its SQL and its TypeORM repository writes. */
export function writtenTables(text: string, entities: Map<string, string> = new Map()): Set<string> {
  const tables = new Set<string>();
  for (const sql of literals(text)) {
    // Not a write: FOR UPDATE, DO UPDATE, KEY UPDATE, and a trigger's event (AFTER UPDATE ON t, AFTER DELETE ON t).
    for (const match of sql.matchAll(
      /(?<!\b(?:FOR|DO|KEY|AFTER|BEFORE)\s+)\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)/gi,
    ))
      tables.add(match[1].toLowerCase());
  }
  for (const match of text.matchAll(/deleteInBatches\([^,]+,\s*'(\w+)'/g)) tables.add(match[1]);
  for (const match of text.matchAll(
    /getRepository\((\w+)\)\s*\.(?:insert|update|save|delete|upsert|remove|softDelete)\b/g,
  )) {
    tables.add(entities.get(match[1]) ?? `entity ${match[1]}`);
  }
  return tables;
}

/** Every lib's migration files (libs/<lib>/src/migrations/*). */
export function migrationFiles(): string[] {
  return readdirSync(join(ROOT, 'libs')).flatMap((lib) => {
    const dir = join(ROOT, 'libs', lib, 'src', 'migrations');
    try {
      return readdirSync(dir)
        .filter((name) => /^\d{13}-/.test(name))
        .map((name) => join(dir, name));
    } catch {
      return [];
    }
  });
}
