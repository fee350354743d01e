// The wire module is shared with the client package, which compiles it in: it must import nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Refusal } from '@app/platform';
import { REFUSAL_STATUS, RefusalCode } from './index';

it('imports nothing, so the client package can compile it in without Nest or any library', () => {
  const source = readFileSync(join(__dirname, 'index.ts'), 'utf8');
  expect(source.match(/^\s*(import|export .* from)\b.*$/gm) ?? []).toEqual([]);
  expect(source).not.toMatch(/\brequire\(/);
});

it('every code answers a client or server error status, and a Refusal takes its status from here', () => {
  for (const [code, status] of Object.entries(REFUSAL_STATUS)) {
    expect(status >= 400 && status < 600).toBe(true);
    expect(new Refusal(code as RefusalCode, 'Fix it.').status).toBe(status);
  }
});
