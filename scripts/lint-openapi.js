#!/usr/bin/env node
// Lints an OpenAPI document with Redocly's own engine and its `recommended` rules, offline
// (the rules ship inside @redocly/openapi-core; the document has no external $ref). Prints one JSON line:
// every problem as {severity, ruleId, pointer, message}; exits 1 when any is an error.
//   npm run -s lint:openapi -- http://localhost:3000/api/openapi.json    (a running service)
//   node scripts/lint-openapi.js < openapi.json                           (test/openapi-lint.e2e-spec.ts)
// A child process of its own because the package is ES modules only, which jest's CommonJS loader cannot run.

async function documentText(source) {
  if (!source) {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
  if (/^https?:\/\//.test(source)) return (await fetch(source)).text();
  return require('node:fs').readFileSync(source, 'utf8');
}

async function main() {
  const { createConfig, lintFromString } = await import('@redocly/openapi-core');
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: await documentText(process.argv[2]),
    absoluteRef: 'openapi.json',
    config,
  });
  const found = problems.map((p) => ({
    severity: p.severity,
    ruleId: p.ruleId,
    pointer: p.location[0]?.pointer ?? '',
    message: p.message,
  }));
  process.stdout.write(`${JSON.stringify(found)}\n`);
  process.exitCode = found.some((p) => p.severity === 'error') ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
