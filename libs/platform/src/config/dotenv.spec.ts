import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDotEnv } from './config';

it('.env is read when present; the environment wins over it; no file is no error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dotenv-'));
  try {
    expect(loadDotEnv(dir)).toBe(false);
    writeFileSync(join(dir, '.env'), 'LIFELINE_DOTENV_A=from-file\nLIFELINE_DOTENV_B=from-file\n');
    process.env.LIFELINE_DOTENV_B = 'from-env';
    expect(loadDotEnv(dir)).toBe(true);
    expect(process.env.LIFELINE_DOTENV_A).toBe('from-file');
    expect(process.env.LIFELINE_DOTENV_B).toBe('from-env');
  } finally {
    delete process.env.LIFELINE_DOTENV_A;
    delete process.env.LIFELINE_DOTENV_B;
    rmSync(dir, { recursive: true, force: true });
  }
});
