// docs/mcp.md#protocol-versions: one list of the versions the door serves, read by initialize (which
// agrees to one of them) and by the MCP-Protocol-Version header check (which refuses the others);
// without the header a request is taken as 2025-03-26, as the MCP transport rule says.
import { Refusal } from '@app/platform';

/** Oldest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const DEFAULT_PROTOCOL_VERSION = '2025-03-26';
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1];

/**
 * The version initialize answers: the one the client asked for when the door serves it, else the latest the door
 * serves (the MCP lifecycle's negotiation: the client then speaks it, or disconnects).
 */
export function negotiatedProtocolVersion(requested: unknown): string {
  return typeof requested === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
}

/** The version a request speaks, or the refusal naming the supported ones. */
export function protocolVersionOf(header: string | string[] | undefined): string | Refusal {
  if (header === undefined || header === '') return DEFAULT_PROTOCOL_VERSION;
  const value = Array.isArray(header) ? header[0] : header;
  if ((SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(value)) return value;
  return new Refusal(
    'unsupported_protocol_version',
    `MCP-Protocol-Version ${JSON.stringify(value).slice(0, 60)} is not supported: send one of ` +
      `${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}, or leave the header out for ${DEFAULT_PROTOCOL_VERSION}.`,
  );
}

/** The RFC 9728 protected-resource document for the tool door. */
export function protectedResourceMetadata(baseUrl: string) {
  return {
    resource: `${baseUrl}/api/mcp`,
    // Connectors sign in here: the api is its own authorization server.
    authorization_servers: [baseUrl],
    bearer_methods_supported: ['header'],
    resource_name: 'Lifeline tool door',
    resource_documentation: `${baseUrl}/api/docs`,
    scopes_supported: [],
  };
}

export function protectedResourceAddress(baseUrl: string): string {
  return `${baseUrl}/.well-known/oauth-protected-resource`;
}
