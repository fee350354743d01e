// docs/operations.md#failover: a pg Client that connects as libpq does to a multi-host address
// (domain/host-list.ts), which node-postgres does not: it tries the hosts in order, asks each session it opens
// what it is, and keeps the first of the kind target_session_attrs asks for. A host that refuses, resets or
// times out is passed over; a refusal of the user, password or database ends the try there, as in libpq.
// Every connection of the pools, of the database watch and of the migrations is one of these, so after a
// failover each new connection finds the new primary by itself.
import { Client, ClientConfig, Connection } from 'pg';
import { isConnectionFailure } from '../errors/unavailable';
import {
  checksSession,
  HostList,
  hostListOf,
  hostsNamed,
  roundsOf,
  SessionState,
  sessionFits,
  TargetSession,
} from './domain/host-list';

/** What libpq asks, in one statement: SHOW transaction_read_only and pg_is_in_recovery(). */
const SESSION_STATE =
  "SELECT current_setting('transaction_read_only') = 'on' AS read_only, pg_is_in_recovery() AS in_recovery";

const WANTED: Record<TargetSession, string> = {
  any: 'accepts a connection',
  'read-write': 'accepts writes (a primary)',
  'read-only': 'is read-only',
  primary: 'is a primary',
  standby: 'is a standby',
  'prefer-standby': 'accepts a connection',
};

/** No host of the list has a session of the kind asked for: a connection failure (SQLSTATE class 08). */
export class NoHostFits extends Error {
  readonly code = '08001';
  /** What was asked of a host, in a sentence's words ("accepts writes (a primary)"). */
  readonly wanted: string;

  constructor(
    list: HostList,
    /** Hosts that opened a session of another kind; 0: none could be reached, `cause` says why the last could not. */
    readonly sessionsOfAnotherKind: number,
    options?: { cause?: unknown },
  ) {
    const wanted = WANTED[list.target];
    const why = options?.cause ? ` (a host refused: ${(options.cause as Error).message})` : '';
    super(`no host of ${hostsNamed(list)} ${wanted} just now${why}`, options);
    this.name = 'NoHostFits';
    this.wanted = wanted;
  }
}

/** The pg config of an address: its first host's address, and the list when the connection must choose. */
export function connectionConfig(url: string): { connectionString: string; databaseHosts?: HostList } {
  const list = hostListOf(url);
  if ('problem' in list) throw new Error(`The PostgreSQL address is malformed: ${list.problem}.`);
  const chooses = list.hosts.length > 1 || checksSession(list);
  return { connectionString: list.urls[0], ...(chooses ? { databaseHosts: list } : {}) };
}

/** pg's own connect and query, past the overrides of the subclasses (whose watch counts the pool's statements). */
const plainConnect = Client.prototype.connect as (this: Client) => Promise<Client>;
const plainQuery = Client.prototype.query as (this: Client, text: string) => Promise<{ rows: any[] }>;

type Internals = {
  connection: Connection;
  connectionTimeoutHandle?: ReturnType<typeof setTimeout>;
  connectionParameters: { host: string; port: number };
};

export class TargetedClient extends Client {
  private readonly hostList: HostList | undefined;
  /** What a fresh Connection is made with, for each host tried after the first. */
  private readonly connectionOptions: ConstructorParameters<typeof Connection>[0];

  constructor(config?: ClientConfig & { databaseHosts?: HostList }) {
    super(config);
    this.hostList = config?.databaseHosts;
    const parameters = (this as unknown as { connectionParameters: Record<string, unknown> }).connectionParameters;
    this.connectionOptions = {
      ssl: parameters.ssl,
      keepAlive: config?.keepAlive ?? false,
      keepAliveInitialDelayMillis: config?.keepAliveInitialDelayMillis ?? 0,
      encoding: (parameters.client_encoding as string) || 'utf8',
    } as never;
  }

  override connect(callback?: any): any {
    if (!this.hostList) return callback ? super.connect(callback) : super.connect();
    const chosen = this.choose(this.hostList);
    if (!callback) return chosen;
    chosen.then(
      () => callback(null, this),
      (error: Error) => callback(error),
    );
    return undefined;
  }

  /**
   * Tries the hosts round by round; resolves connected to the first that fits. A connection that ends while its
   * session is asked about makes pg emit 'error' on this client as well as fail the question, and nothing
   * listens yet (a pool listens once connect has answered): the failure is heard here, as the question's.
   */
  private async choose(list: HostList): Promise<this> {
    const heard = () => undefined;
    this.on('error', heard);
    try {
      return await this.tryHosts(list);
    } finally {
      this.off('error', heard);
    }
  }

  private async tryHosts(list: HostList): Promise<this> {
    let tried = false;
    let failure: unknown;
    let otherKind = 0;
    for (const round of roundsOf(list.target)) {
      for (const { host, port } of list.hosts) {
        if (tried) this.renew();
        tried = true;
        this.aim(host, port);
        try {
          await plainConnect.call(this);
          if (!checksSession(list) || sessionFits(round, await this.sessionState())) return this;
          otherKind++;
        } catch (error) {
          if (!isConnectionFailure(error)) throw error;
          failure = error;
        }
      }
    }
    this.renew();
    throw new NoHostFits(list, otherKind, failure ? { cause: failure } : undefined);
  }

  private aim(host: string, port: number): void {
    const self = this as unknown as Internals;
    this.host = self.connectionParameters.host = host;
    this.port = self.connectionParameters.port = port;
  }

  private async sessionState(): Promise<SessionState> {
    const { rows } = await plainQuery.call(this, SESSION_STATE);
    return { readOnly: rows[0].read_only === true, inRecovery: rows[0].in_recovery === true };
  }

  /**
   * Closes the connection of the host just tried, unheard (its late events would reach this client otherwise), and
   * makes the client new again for the next.
   */
  private renew(): void {
    const self = this as unknown as Internals & Record<string, unknown>;
    const old = self.connection;
    old.removeAllListeners();
    old.on('error', () => undefined);
    old.end();
    clearTimeout(self.connectionTimeoutHandle);
    self.connection = new Connection(this.connectionOptions);
    Object.assign(self, {
      _connecting: false,
      _connected: false,
      _connectionError: false,
      _ending: false,
      _ended: false,
      _queryable: true,
      _activeQuery: null,
      _txStatus: null,
      _queryQueue: [],
      _sentQueryQueue: [],
      processID: null,
      secretKey: null,
      readyForQuery: false,
    });
  }
}
