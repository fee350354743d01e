// Distinct people of a chart bucket (docs/decisions.md#charts-from-rollups, people): a set of 64-bit
// person hashes, exact up to PERSON_SKETCH_EXACT hashes, a HyperLogLog of 2^14 registers past it.
// Exact below the bound (a union of exact sets stays exact while it fits); past it the count has a
// standard error of 1.04 / sqrt(2^14) = 0.81% (Ertl's improved estimator, no bias tables, good at every
// size). Pure: hashes arrive as bytes (8 per hash, big-endian, as PostgreSQL's int8send writes them).

/** HyperLogLog precision: 2^14 registers of one byte. */
export const PERSON_SKETCH_P = 14;
const M = 1 << PERSON_SKETCH_P;
/** Bits of a hash left for the register value (64 - p); values run 0..Q + 1. */
const Q = 64 - PERSON_SKETCH_P;
/** Exact up to this many hashes: 8 bytes each, as many bytes as the registers take. */
export const PERSON_SKETCH_EXACT = M / 8;
/** The estimate's relative standard error past the exact bound. */
export const PERSON_SKETCH_ERROR = 1.04 / Math.sqrt(M);

const EXACT = 0;
const HLL = 1;

/**
 * Exact hashes as (high, low) 32-bit halves in an open-addressing table that doubles as it fills (at
 * most 4,096 slots): no bigint per hash, and a small set stays small. The low half picks the slot (the
 * hashes are uniform already).
 */
class HashSet {
  size = 0;
  private halves = new Uint32Array(32);
  private used = new Uint8Array(16);

  add(hi: number, lo: number): void {
    if (2 * (this.size + 1) > this.used.length) this.grow();
    const mask = this.used.length - 1;
    let slot = lo & mask;
    while (this.used[slot]) {
      if (this.halves[2 * slot] === hi && this.halves[2 * slot + 1] === lo) return;
      slot = (slot + 1) & mask;
    }
    this.used[slot] = 1;
    this.halves[2 * slot] = hi;
    this.halves[2 * slot + 1] = lo;
    this.size++;
  }

  forEach(each: (hi: number, lo: number) => void): void {
    for (let slot = 0; slot < this.used.length; slot++)
      if (this.used[slot]) each(this.halves[2 * slot], this.halves[2 * slot + 1]);
  }

  private grow(): void {
    const [halves, used] = [this.halves, this.used];
    this.halves = new Uint32Array(halves.length * 2);
    this.used = new Uint8Array(used.length * 2);
    this.size = 0;
    for (let slot = 0; slot < used.length; slot++) if (used[slot]) this.add(halves[2 * slot], halves[2 * slot + 1]);
  }
}

export class PersonSketch {
  private exact: HashSet | null = new HashSet();
  private registers: Uint8Array | null = null;

  /** A sketch as toBytes wrote it. */
  static fromBytes(bytes: Uint8Array): PersonSketch {
    return new PersonSketch().mergeBytes(bytes);
  }

  /** This sketch becomes the union of itself and the sketch toBytes wrote (without making that sketch). */
  mergeBytes(bytes: Uint8Array): this {
    if (bytes[0] !== HLL) return this.addHashes(bytes.subarray(1));
    if (this.exact) this.toRegisters();
    const mine = this.registers!;
    for (let i = 0; i < M; i++) if (bytes[1 + i] > mine[i]) mine[i] = bytes[1 + i];
    return this;
  }

  /** Adds hashes written 8 bytes each, big-endian (int8send's bytes). */
  addHashes(bytes: Uint8Array): this {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at + 8 <= bytes.byteLength; at += 8) this.addHalves(view.getUint32(at), view.getUint32(at + 4));
    return this;
  }

  add(hash: bigint): void {
    this.addHalves(Number(hash >> 32n), Number(hash & 0xffffffffn));
  }

  /** This sketch becomes the union of itself and `other`. */
  merge(other: PersonSketch): this {
    return this.mergeBytes(other.toBytes());
  }

  /** Whether count() is exact. */
  isExact(): boolean {
    return this.exact !== null;
  }

  /** The number of distinct hashes: exact, or estimated past the bound. */
  count(): number {
    return this.exact ? this.exact.size : estimate(this.registers!);
  }

  toBytes(): Buffer {
    if (!this.exact) return Buffer.concat([Buffer.of(HLL), this.registers!]);
    const bytes = Buffer.alloc(1 + 8 * this.exact.size);
    bytes[0] = EXACT;
    let at = 1;
    this.exact.forEach((hi, lo) => {
      bytes.writeUInt32BE(hi, at);
      bytes.writeUInt32BE(lo, at + 4);
      at += 8;
    });
    return bytes;
  }

  private addHalves(hi: number, lo: number): void {
    if (!this.exact) return setRegister(this.registers!, hi, lo);
    this.exact.add(hi, lo);
    if (this.exact.size > PERSON_SKETCH_EXACT) this.toRegisters();
  }

  private toRegisters(): void {
    const registers = new Uint8Array(M);
    this.exact!.forEach((hi, lo) => setRegister(registers, hi, lo));
    this.exact = null;
    this.registers = registers;
  }
}

/**
 * The first p bits pick the register; it keeps the most leading zeros (plus one) seen in the other 64 - p (hi and lo:
 * the hash's halves).
 */
function setRegister(registers: Uint8Array, hi: number, lo: number): void {
  const index = hi >>> (32 - PERSON_SKETCH_P);
  const rest = hi & ((1 << (32 - PERSON_SKETCH_P)) - 1);
  const value =
    rest !== 0 ? Math.clz32(rest) - PERSON_SKETCH_P + 1 : lo !== 0 ? 32 - PERSON_SKETCH_P + Math.clz32(lo) + 1 : Q + 1;
  if (value > registers[index]) registers[index] = value;
}

/** Ertl, "New cardinality estimation algorithms for HyperLogLog sketches" (2017), algorithm 6. */
function estimate(registers: Uint8Array): number {
  const counts = new Array<number>(Q + 2).fill(0);
  for (let i = 0; i < M; i++) counts[registers[i]]++;
  let z = M * tau((M - counts[Q + 1]) / M);
  for (let k = Q; k >= 1; k--) z = 0.5 * (z + counts[k]);
  z += M * sigma(counts[0] / M);
  return Math.round((M * M) / (2 * Math.LN2) / z);
}

function sigma(x: number): number {
  if (x === 1) return Infinity;
  let [y, z, previous] = [1, x, 0];
  do {
    x *= x;
    previous = z;
    z += x * y;
    y += y;
  } while (z !== previous);
  return z;
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let [y, z, previous] = [1, 1 - x, 0];
  do {
    x = Math.sqrt(x);
    previous = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
  } while (z !== previous);
  return z / 3;
}
