// A large JSON document as a jsonb parameter. pg sends a string parameter by first asking
// Buffer.byteLength for its UTF-8 length. For a string that JSON.stringify has just made and that runs
// past about a hundred kilobytes (an ingest write's document: 442 kB for 515 rows), V8 has not flattened
// it yet, and that first call cost about twice the stringify itself (1.9 of 2.9 ms, Node 20, a captured
// ingest document): 14% of the api's CPU on batches. Written into a Buffer a slice of array items at a
// time, the same text costs 1.1 ms, stringify included; a document with no array over 64 items (a shared
// single-event transaction's) is stringified at once and costs what it did.
// A Buffer goes in PostgreSQL's binary format, which for jsonb is a version byte (1) and then the text
// itself, read by the same parser as the text format (jsonb_recv).

/** jsonb's binary format version (PostgreSQL's jsonb_recv accepts 1, followed by the JSON text). */
const JSONB_VERSION = 1;
/** Array items stringified at once: each slice's text stays small enough to be written fast. */
const SLICE = 64;
const [COMMA, CLOSE_ARRAY] = [0x2c, 0x5d];
/** Short texts gathered in one string up to this length before they are written. */
const GATHERED = 16 * 1024;

/** Where the text is written before it is copied out: made at the first use, it grows to the largest document seen. */
let scratch = Buffer.alloc(0);

/** Makes room for `more` UTF-16 code units written at `at` (3 UTF-8 bytes at most each). */
function room(at: number, more: number): void {
  const needed = at + more * 3 + 1;
  if (needed <= scratch.length) return;
  const grown = Buffer.allocUnsafeSlow(Math.max(needed, scratch.length * 2, 1 << 20));
  scratch.copy(grown, 0, 0, at);
  scratch = grown;
}

function writeText(text: string, at: number): number {
  room(at, text.length);
  return at + scratch.write(text, at);
}

/**
 * Writes a long array's JSON at `at` a slice at a time: each slice's `[` becomes the comma after the one before, its
 * `]` dropped.
 */
function writeSlices(items: unknown[], at: number): number {
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
 * (`$1::jsonb`); a statement reading it as text would get the version byte too. Short texts are gathered
 * and written at once (each Buffer write costs about half a microsecond), long arrays a slice at a time.
 */
export function jsonbParam(document: Record<string, unknown>): Buffer {
  room(0, 1);
  scratch[0] = JSONB_VERSION;
  let at = 1;
  const keys = Object.keys(document);
  // A long array (without a toJSON of its own) goes a slice at a time; a document with none, at once.
  const long = (value: unknown) =>
    Array.isArray(value) && value.length > SLICE && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
  if (!keys.some((key) => long(document[key]))) return copied(writeText(JSON.stringify(document), at));
  let gathered = '{';
  for (const key of keys) {
    const value = document[key];
    // Anything but a long array as JSON.stringify writes it, and left out where it would be.
    const sliced = long(value);
    const text = sliced ? '' : (JSON.stringify(value) as string | undefined);
    if (text === undefined) continue;
    gathered += `${gathered.length > 1 || at > 1 ? ',' : ''}${JSON.stringify(key)}:${text}`;
    if (sliced || gathered.length > GATHERED) {
      at = writeText(gathered, at);
      gathered = '';
    }
    if (sliced) at = writeSlices(value as unknown[], at);
  }
  return copied(writeText(`${gathered}}`, at));
}

/**
 * The scratch's first `length` bytes in a Buffer of their own (pg may serialize the statement after
 * another write has reused the scratch); not Buffer.from(subarray), which copied 130 kB in 290 µs
 * against 8 µs for allocUnsafe and copy.
 */
function copied(length: number): Buffer {
  const param = Buffer.allocUnsafe(length);
  scratch.copy(param, 0, 0, length);
  return param;
}
