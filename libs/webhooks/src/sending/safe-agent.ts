// interface.md "Delivery rules" (Address rule) at send time; decisions.md section 1 (UNSAFE_ALLOW_PRIVATE_TARGETS).
// The socket connects only to addresses this module resolved and checked itself, so a name that
// resolves to a public address when saved and to 127.0.0.1 when sent (DNS rebinding) is refused.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { isPublicAddress } from '../domain/address-rule';

/** Resolves a host name to every address it has (dns.lookup with all: true by default). */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export interface SafeAgentOptions {
  allowPrivate: boolean;
  /** Injected in tests to stand for DNS answers the test machine cannot give. */
  resolve?: ResolveAll;
  /** Most sockets to one receiver; keep-alive reuses them between deliveries. */
  connections?: number;
  connectTimeoutMs?: number;
  /** Extra certificate authority to trust; tests use it for their own receiver's certificate. */
  ca?: string;
}

/** Raised when a target is, or resolves to, an address that is not public. */
export class AddressRefusedError extends Error {
  readonly code = 'ADDRESS_REFUSED';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address; use an address on the public internet.`);
    this.name = 'AddressRefusedError';
  }
}

/** The operating system's resolver (getaddrinfo), every address of the name. */
export const systemResolve: ResolveAll = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A net.connect lookup that hands back only addresses that passed the check, all of them checked. */
export function checkedLookup(allowPrivate: boolean, resolve: ResolveAll = systemResolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (found) => {
        if (!allowPrivate) {
          const refused = found.find((entry) => !isPublicAddress(entry.address));
          if (refused) return callback(new AddressRefusedError(hostname, refused.address), []);
        }
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? found.filter((entry) => entry.family === family) : found;
        if (usable.length === 0) {
          const notFound: NodeJS.ErrnoException = new Error(`${hostname} has no address; check the host name.`);
          notFound.code = 'ENOTFOUND';
          return callback(notFound, []);
        }
        if (options.all) return callback(null, usable);
        callback(null, usable[0].address, usable[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}

/** An undici connector that checks IP-literal hosts itself and names through checkedLookup. */
export function safeConnector(options: SafeAgentOptions): buildConnector.connector {
  const base = buildConnector({
    timeout: options.connectTimeoutMs ?? 10_000,
    ...(options.ca ? { ca: options.ca } : {}),
    // net.connect and tls.connect call this lookup and connect to what it returns, nothing else.
    lookup: checkedLookup(options.allowPrivate, options.resolve),
  } as buildConnector.BuildOptions);
  return (connectOptions, callback) => {
    // net.connect skips lookup for IP literals, so they are checked here; TLS servername still comes from host.
    const literal = connectOptions.hostname;
    if (!options.allowPrivate && isIP(literal) !== 0 && !isPublicAddress(literal)) {
      callback(new AddressRefusedError(literal, literal), null);
      return;
    }
    base(connectOptions, callback);
  };
}

/** One pooled, keep-alive agent whose every connection went through the address check. */
export function createSafeAgent(options: SafeAgentOptions): Agent {
  return new Agent({
    connect: safeConnector(options),
    connections: options.connections ?? 256,
  });
}

const shared = new Map<boolean, Agent>();

/** The process-wide agent for one allowPrivate setting, so keep-alive sockets are reused. */
export function sharedSafeAgent(allowPrivate: boolean): Agent {
  let agent = shared.get(allowPrivate);
  if (!agent) {
    agent = createSafeAgent({ allowPrivate });
    shared.set(allowPrivate, agent);
  }
  return agent;
}

/** Close the shared agents (worker shutdown, end of a test file). */
export async function closeSafeAgents(): Promise<void> {
  const agents = [...shared.values()];
  shared.clear();
  await Promise.all(agents.map((agent) => agent.close()));
}
