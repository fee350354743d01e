// A large JSON document as a jsonb parameter (issue 32). pg sends a string parameter by first asking
// Buffer.byteLength for its UTF-8 length. For a string that JSON.stringify has just made and that runs
// past a few hundred kilobytes (an ingest write's document: 442 kB for 515 rows), V8 has not flattened
// it yet, and that first call costs about twice the stringify itself (1.9 of 2.9 ms, measured in
// Node 20 on a captured ingest document). That was 14% of the api's CPU on batches. Written in slices of
// a few dozen array items straight into a Buffer, the same text costs 1.1 to 1.3 ms with the stringify
// included. A Buffer goes in PostgreSQL's binary format, which for jsonb is a version byte (1) and then
// the text itself, read by the same parser as the text format (jsonb_recv).

/** jsonb's binary format version (PostgreSQL's jsonb_recv accepts 1, followed by the JSON text). */
const JSONB_VERSION = 1;
/** Array items stringified at once: each slice's text stays small enough to be written fast. */
const SLICE = 64;
const [COMMA, COLON, OPEN_OBJECT, CLOSE_OBJECT, CLOSE_ARRAY] = [0x2c, 0x3a, 0x7b, 0x7d, 0x5d];

/** Where the text is written before it is copied out; it grows to the largest document seen. */
let scratch = Buffer.allocUnsafeSlow(1 << 20);

/** Makes room for `more` UTF-16 code units written at `at` (3 UTF-8 bytes at most each). */
function room(at: number, more: number): void {
  const needed = at + more * 3 + 1;
  if (needed <= scratch.length) return;
  const grown = Buffer.allocUnsafeSlow(Math.max(needed, scratch.length * 2));
  scratch.copy(grown, 0, 0, at);
  scratch = grown;
}

function writeText(text: string, at: number): number {
  room(at, text.length);
  return at + scratch.write(text, at);
}

/** Writes an array's JSON at `at` a slice at a time: each slice's `[` becomes the comma after the one before, its `]` dropped. */
function writeArray(items: unknown[], at: number): number {
  if (items.length === 0) return writeText('[]', at);
  for (let from = 0; from < items.length; from += SLICE) {
    const start = at;
    at = writeText(JSON.stringify(items.slice(from, from + SLICE)), at) - 1;
    if (from > 0) scratch[start] = COMMA;
  }
  scratch[at] = CLOSE_ARRAY;
  return at + 1;
}

/**
 * `document` (a plain object of JSON values) as a jsonb parameter for pg: a Buffer, sent in the binary
 * format, whose text is exactly JSON.stringify(document)'s. For a statement whose parameter is jsonb
 * (`$1::jsonb`); a statement reading it as text would get the version byte too.
 */
export function jsonbParam(document: Record<string, unknown>): Buffer {
  let at = 0;
  room(at, 2);
  scratch[at++] = JSONB_VERSION;
  scratch[at++] = OPEN_OBJECT;
  let first = true;
  for (const key of Object.keys(document)) {
    const value = document[key];
    // An array (without a toJSON of its own) a slice at a time; anything else as JSON.stringify writes it, and left out where it would be.
    const sliced = Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
    const text = sliced ? '' : (JSON.stringify(value) as string | undefined);
    if (text === undefined) continue;
    if (!first) scratch[at++] = COMMA;
    first = false;
    at = writeText(JSON.stringify(key), at);
    scratch[at++] = COLON;
    at = sliced ? writeArray(value as unknown[], at) : writeText(text, at);
  }
  room(at, 1);
  scratch[at++] = CLOSE_OBJECT;
  return Buffer.from(scratch.subarray(0, at));
}
