// GET /api/openapi.json passes Redocly's recommended rules, linted by Redocly's own engine
// (scripts/lint-openapi.js, offline): no error, and no warning but those
// docs/decisions.md#openapi-reference keeps, each with its reason.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { useApp } from './harness';

const t = useApp();

interface Problem {
  severity: 'error' | 'warn';
  ruleId: string;
  pointer: string;
  message: string;
}

/** The warnings kept, by rule and place (docs/decisions.md#openapi-reference). */
const KEPT_WARNINGS = [
  'info-license #/info',
  'operation-2xx-response #/paths/~1api~1mcp/get/responses',
  'operation-2xx-response #/paths/~1api~1mcp/delete/responses',
];

function lint(document: string): Problem[] {
  const script = resolve(__dirname, '../scripts/lint-openapi.js');
  try {
    return JSON.parse(execFileSync(process.execPath, [script], { input: document, encoding: 'utf8' }));
  } catch (error) {
    const { status, stdout } = error as { status?: number; stdout?: string };
    if (status === 1 && stdout) return JSON.parse(stdout); // errors found: the list says which
    throw error;
  }
}

it('GET /api/openapi.json passes redocly lint (recommended) with no error and only the warnings kept', async () => {
  const answer = await fetch(`${t.url}/api/openapi.json`);
  expect(answer.status).toBe(200);
  const problems = lint(await answer.text());
  const described = problems.map((p) => `${p.severity} ${p.ruleId} ${p.pointer}: ${p.message}`);
  expect(described.filter((p) => p.startsWith('error '))).toEqual([]);
  expect(
    problems
      .filter((p) => p.severity === 'warn' && !KEPT_WARNINGS.includes(`${p.ruleId} ${p.pointer}`))
      .map((p) => `${p.ruleId} ${p.pointer}: ${p.message}`),
  ).toEqual([]);
}, 60_000);

it('the linter finds what the recommended rules forbid, so a clean answer means something', () => {
  const broken = {
    openapi: '3.1.0',
    info: { title: 'x', version: '1' },
    servers: [{ url: 'http://127.0.0.1' }],
    paths: { '/x': { get: { responses: { 200: { description: 'ok' } } } } },
  };
  const rules = new Set(
    lint(JSON.stringify(broken))
      .filter((p) => p.severity === 'error')
      .map((p) => p.ruleId),
  );
  expect([...rules].sort()).toEqual(['operation-summary', 'security-defined']);
}, 60_000);
