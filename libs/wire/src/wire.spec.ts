// The wire module is shared with the client package, which compiles it in: it must import nothing but its own files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Refusal } from '@app/platform';
import { REFUSAL_STATUS, RefusalCode } from './index';

it('imports nothing but its own files, so the client package can compile it in without Nest or any library', () => {
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
    const source = readFileSync(join(__dirname, file), 'utf8');
    const imports = source.match(/^\s*(import|export .* from)\b.*$/gm) ?? [];
    expect(imports.filter((line) => !/from '\.\/[a-z-]+';$/.test(line))).toEqual([]);
    expect(source).not.toMatch(/\brequire\(/);
  }
});

it('every code answers a client or server error status, and a Refusal takes its status from here', () => {
  for (const [code, status] of Object.entries(REFUSAL_STATUS)) {
    expect(status >= 400 && status < 600).toBe(true);
    expect(new Refusal(code as RefusalCode, 'Fix it.').status).toBe(status);
  }
});
