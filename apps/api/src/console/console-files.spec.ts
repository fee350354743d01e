// /console's files over a real express server and a real folder: what is cached, what falls back.
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { installConsole } from './console-files';

async function serve(dir: string): Promise<{ url: string; server: Server }> {
  const app = express();
  installConsole(app, dir);
  app.use((_req, res) => void res.status(418).send('past the console'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the console files at /console', () => {
  const built = mkdtempSync(join(tmpdir(), 'console-'));
  let url = '';
  let server: Server;
  beforeAll(async () => {
    mkdirSync(join(built, 'assets'));
    writeFileSync(
      join(built, 'index.html'),
      '<!doctype html><script type="module" src="/console/assets/index-abc123.js"></script>',
    );
    writeFileSync(join(built, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(built, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(join(built, 'assets', 'index-abc123.js.gz'), gzipSync('console.log(1)'));
    writeFileSync(join(built, 'assets', 'plain-abc123.css'), 'p{}');
    ({ url, server } = await serve(built));
  });
  afterAll(() => {
    server.close();
    rmSync(built, { recursive: true, force: true });
  });

  it('answers the app for every page under /console (deep links), never cached, under a strict script policy', async () => {
    for (const path of ['/console', '/console/', '/console/people/per_1?types=purchase', '/console/settings']) {
      const answer = await fetch(url + path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await answer.text()).toContain('index-abc123.js');
    }
  });

  it('serves hashed assets cached for a year, and a missing asset is 404, not the app', async () => {
    const asset = await fetch(`${url}/console/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    const missing = await fetch(`${url}/console/assets/index-old999.js`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toMatch(/reload the console/);
  });

  it("sends the build's brotli or gzip copy to a browser that accepts it, typed as the asset, and the asset itself otherwise", async () => {
    const asset = `${url}/console/assets/index-abc123.js`;
    const ask = (encoding: string) => request(asset, { headers: { 'accept-encoding': encoding } });
    const br = await ask('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(Buffer.from(await br.body.arrayBuffer())).toString()).toBe('console.log(1)');
    const gz = await ask('gzip, br;q=0');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.body.arrayBuffer())).toString()).toBe('console.log(1)');
    const plain = await ask('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(await plain.body.text()).toBe('console.log(1)');
    // No compressed copy made: the file as it is.
    const css = await request(`${url}/console/assets/plain-abc123.css`, { headers: { 'accept-encoding': 'br' } });
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(await css.body.text()).toBe('p{}');
  });

  it('leaves other paths and other methods to the rest of the app', async () => {
    expect((await fetch(`${url}/consoles`)).status).toBe(418);
    expect((await fetch(`${url}/console/people`, { method: 'POST' })).status).toBe(418);
  });

  it('says how to build the console when it is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'console-empty-'));
    const bare = await serve(empty);
    try {
      const answer = await fetch(`${bare.url}/console/people`);
      expect(answer.status).toBe(503);
      expect(await answer.text()).toMatch(/npm run build:console/);
    } finally {
      bare.server.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
