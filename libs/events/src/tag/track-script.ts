// docs/website-tag.md: the script served at {base_url}/api/in/<public_key>/track.js.
// track.source.js is minified once with terser (by `npm run build` into track.min.js, else once at
// start); each request only puts the workspace's public address in place of the placeholder, as a
// JSON string that nothing inside can end early. terser (a 1 MB bundle) loads only to minify, so the
// api and worker run from dist/ never load it.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as Terser from 'terser';

export const TRACK_SCRIPT_PLACEHOLDER = '__LIFELINE_ENDPOINT__';

const TRACK_SCRIPT_SOURCE = join(__dirname, 'track.source.js');
/**
 * Written by `npm run build` beside the compiled code; absent when running from the sources.
 * @public scripts/build.js reads it by name.
 */
export const TRACK_SCRIPT_MINIFIED = join(__dirname, 'track.min.js');

/**
 * Headers for GET track.js: browsers keep it a day and may use a stale copy for a week while they
 * revalidate it with its ETag (an unchanged tag then costs a 304).
 */
export const TRACK_SCRIPT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'application/javascript; charset=utf-8',
  'Cache-Control': 'public, max-age=86400, stale-while-revalidate=604800',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'X-Content-Type-Options': 'nosniff',
});

/**
 * The endpoint as a JavaScript string literal: JSON-escaped, with < escaped so no "</script>" or
 * "<!--" can appear, and U+2028/U+2029 escaped because ES2017 engines reject them raw in strings.
 */
export function endpointLiteral(endpoint: string): string {
  return JSON.stringify(endpoint)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Minifies track.source.js; throws if the placeholder did not survive (the tag would be useless). */
export async function minifyTrackScript(sourcePath: string = TRACK_SCRIPT_SOURCE): Promise<string> {
  const source = await readFile(sourcePath, 'utf8');
  const { minify } = require('terser') as typeof Terser;
  const result = await minify(source, {
    ecma: 2017,
    compress: { passes: 2 },
    mangle: true,
    format: { comments: false },
  });
  if (!result.code?.includes(TRACK_SCRIPT_PLACEHOLDER)) {
    throw new Error(`The website tag lost its ${TRACK_SCRIPT_PLACEHOLDER} placeholder when minified.`);
  }
  return result.code;
}

/** Splits once, so each request is a join: no regex, and no `$&`-style patterns read from the endpoint. */
function trackScriptRenderer(minified: string): (endpoint: string) => string {
  const parts = minified.split(TRACK_SCRIPT_PLACEHOLDER);
  return (endpoint: string) => parts.join(endpointLiteral(endpoint));
}

let loading: Promise<(endpoint: string) => string> | null = null;

async function minified(): Promise<string> {
  if (existsSync(TRACK_SCRIPT_MINIFIED)) return readFile(TRACK_SCRIPT_MINIFIED, 'utf8');
  return minifyTrackScript();
}

/** The renderer for track.js; the first call minifies (or reads the build's copy), later calls share that work. */
export function loadTrackScript(): Promise<(endpoint: string) => string> {
  loading ??= minified()
    .then(trackScriptRenderer)
    .catch((error: unknown) => {
      loading = null; // a failed start is not cached: the next request tries again
      throw error;
    });
  return loading;
}
