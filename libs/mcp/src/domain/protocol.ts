// docs/mcp.md: the MCP-Protocol-Version header is checked against the versions we serve;
// without the header a request is taken as 2025-03-26, as the MCP transport rule says.
import { Refusal } from '@app/platform';

export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const DEFAULT_PROTOCOL_VERSION = '2025-03-26';

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
