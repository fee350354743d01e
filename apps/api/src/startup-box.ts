// What the api prints once it listens: a box that stands out from the log lines, with the
// demo keys when this start created them, the addresses, and one next step to try.
import type { AppConfig } from '@app/platform';
import type { CreatedWorkspace } from '@app/workspaces';

function box(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const edge = `+${'-'.repeat(width + 2)}+`;
  return ['', edge, ...lines.map((l) => `| ${l.padEnd(width)} |`), edge, ''].join('\n');
}

export function startupBox(config: AppConfig, demo: CreatedWorkspace | null): string {
  const lines = [
    `Lifeline api listening on ${config.baseUrl}`,
    `Admin console: ${config.baseUrl}/console`,
    `GraphQL explorer: ${config.baseUrl}/graphql`,
    `REST reference: ${config.baseUrl}/api/docs`,
    '',
  ];
  if (demo) {
    lines.push(
      'Created workspace "demo" (shown once, keep the secret key):',
      `  public key:      ${demo.publicKey}`,
      `  secret key:      ${demo.secretKey}`,
      `  public address:  ${demo.publicBaseUrl}`,
      '',
      'Post a first event:',
      `  curl -X POST ${config.baseUrl}/api/v1/events \\`,
      `    -H 'Authorization: Bearer ${demo.secretKey}' \\`,
      `    -H 'Content-Type: application/json' -d '{"type":"signup","email":"ada@example.com"}'`,
    );
  } else if (config.nodeEnv === 'production') {
    lines.push(
      'Create a first workspace (prints its keys once):',
      '  node dist/apps/api/src/cli.js workspace create --slug acme --owner you@example.com',
    );
  } else {
    lines.push(
      "Keys are shown once, when made. A new one for the demo workspace (its owner's, which may change settings):",
      '  npm run -s cli -- key create --workspace demo --member owner@demo.test',
      'Then post a first event:',
      `  curl -X POST ${config.baseUrl}/api/v1/events -H 'Authorization: Bearer sk_live_…' \\`,
      `    -H 'Content-Type: application/json' -d '{"type":"signup","email":"ada@example.com"}'`,
    );
  }
  return box(lines);
}
