// While PostgreSQL or Redis cannot be reached, the log says so once when it goes, and
// once when it is back with the count of requests refused meanwhile; never a line per refused request.

export class Outage {
  private since: number | null = null;
  private refusals = 0;
  /** Where the two lines go (a test may listen). */
  log: (line: string) => void = (line) => console.error(line);

  constructor(
    readonly name: string,
    /** What happens meanwhile, as the first line says it. */
    private readonly meanwhile = 'requests that need it answer 503 unavailable until it is back',
  ) {}

  get down(): boolean {
    return this.since !== null;
  }

  /** Notes that it cannot be reached; only the first note of an outage is logged. */
  begin(why: string): void {
    if (this.since !== null) return;
    this.since = Date.now();
    this.refusals = 0;
    this.log(`${this.name} cannot be reached (${why}): ${this.meanwhile}.`);
  }

  /** Notes that it answers; logs how long it was away and how many requests were refused meanwhile. */
  end(): void {
    if (this.since === null) return;
    const seconds = ((Date.now() - this.since) / 1000).toFixed(1);
    this.since = null;
    this.log(
      `${this.name} answers again after ${seconds} s; ${this.refusals} request${this.refusals === 1 ? ' was' : 's were'} ` +
        `refused meanwhile.`,
    );
  }

  /** A request answered 503 unavailable because of it. */
  refused(): void {
    this.refusals++;
  }
}

/** The process's database (one per process: the apps' pool, database/time-limits.ts). */
export const DATABASE_OUTAGE = new Outage('PostgreSQL');
/** The process's Redis (the commands' client; BullMQ's blocking connections retry on their own). */
export const REDIS_OUTAGE = new Outage('Redis');
