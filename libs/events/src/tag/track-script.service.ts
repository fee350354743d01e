// docs/website-tag.md: Nest's handle on track.js for the public doors controller; the script
// itself is in track-script.ts. Each workspace's copy is rendered and compressed (br, gzip) once and
// kept, with a strong ETag, so a request is a lookup.
import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { loadTrackScript } from './track-script';

export { TRACK_SCRIPT_HEADERS } from './track-script';

export interface RenderedScript {
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** Enough for every workspace of a large instance; the oldest copy goes first beyond it. */
const KEPT = 2_000;

/** The encoding to answer for an Accept-Encoding header: br, then gzip, else none. */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | 'identity' {
  const offered = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    offered.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const accepts = (name: string) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

@Injectable()
export class TrackScript implements OnModuleInit {
  private readonly rendered = new Map<string, RenderedScript>();

  /** Minifies at start, so the first visitor does not wait for terser. */
  async onModuleInit(): Promise<void> {
    await loadTrackScript();
  }

  async render(endpoint: string): Promise<RenderedScript> {
    const kept = this.rendered.get(endpoint);
    if (kept) return kept;
    const identity = Buffer.from((await loadTrackScript())(endpoint));
    const made: RenderedScript = {
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
      identity,
      br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(identity, { level: 9 }),
    };
    if (this.rendered.size >= KEPT) this.rendered.delete(this.rendered.keys().next().value!);
    this.rendered.set(endpoint, made);
    return made;
  }
}
