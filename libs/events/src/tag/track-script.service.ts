// Serves the website tag: minified once with terser, then the workspace's public address is put in
// per request as a JSON string (with < escaped, so nothing in it can end a script element).
import { Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from 'terser';

export const TRACK_SCRIPT_HEADERS = {
  'Content-Type': 'application/javascript; charset=utf-8',
  'Cache-Control': 'public, max-age=300, stale-while-revalidate=86400',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'X-Content-Type-Options': 'nosniff',
};

const PLACEHOLDER = '__LIFELINE_ENDPOINT__';

export async function minifiedTag(): Promise<string> {
  const source = readFileSync(join(__dirname, 'lifeline-tag.js'), 'utf8');
  const result = await minify(source, { compress: { passes: 2 }, mangle: true, format: { comments: false } });
  if (!result.code || !result.code.includes(PLACEHOLDER)) throw new Error('the tag lost its endpoint placeholder when minified');
  return result.code;
}

export function withEndpoint(minified: string, endpoint: string): string {
  return minified.replace(PLACEHOLDER, JSON.stringify(endpoint).replace(/</g, '\\u003c'));
}

@Injectable()
export class TrackScript {
  private minified: Promise<string> | null = null;

  async render(endpoint: string): Promise<string> {
    this.minified ??= minifiedTag();
    return withEndpoint(await this.minified, endpoint);
  }
}
