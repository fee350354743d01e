// The authorization server's endpoints, from the MCP SDK's own handlers: RFC 8414
// metadata, RFC 7591 registration, /authorize (code with PKCE S256), /token (code and refresh grants)
// and RFC 7009 /revoke. The protected resource metadata (RFC 9728) stays the tool door's own
// (libs/mcp), naming this server. An issuer must be https, or http on a loopback address.
import type { Logger } from '@nestjs/common';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { createOAuthMetadata } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';

/** Where RFC 8414 puts the metadata. */
const AUTHORIZATION_SERVER_METADATA = '/.well-known/oauth-authorization-server';

/** Installs the endpoints on the api's Express app; false (with a warning) when BASE_URL cannot be an issuer. */
export function installAuthorizationServer(
  app: { use: (...args: any[]) => unknown },
  provider: OAuthServerProvider,
  baseUrl: string,
  logger: Pick<Logger, 'warn'>,
): boolean {
  const issuerUrl = new URL(baseUrl);
  let metadata;
  try {
    metadata = createOAuthMetadata({ provider, issuerUrl, serviceDocumentationUrl: new URL(`${baseUrl}/sign-in`) });
  } catch (error) {
    logger.warn(
      `connectors cannot sign in at the tool door: ${(error as Error).message} (BASE_URL ${baseUrl} must be ` +
        `https, or http on localhost)`,
    );
    return false;
  }
  app.use(AUTHORIZATION_SERVER_METADATA, metadataHandler(metadata));
  app.use('/authorize', authorizationHandler({ provider }));
  app.use('/token', tokenHandler({ provider }));
  app.use(
    '/register',
    clientRegistrationHandler({ clientsStore: provider.clientsStore, clientSecretExpirySeconds: 0 }),
  );
  app.use('/revoke', revocationHandler({ provider }));
  // A body the SDK's readers could not take (a charset other than UTF-8, a broken encoding, too large)
  // is the client's mistake: an OAuth error, never a 500.
  app.use(['/register', '/token', '/revoke', '/authorize'], unreadableRequest);
  return true;
}

function unreadableRequest(
  error: { status?: number; message?: string },
  _req: unknown,
  res: { status(code: number): { json(body: unknown): void } },
  _next: unknown,
): void {
  const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 400;
  res.status(status).json({
    error: 'invalid_request',
    error_description:
      `The request could not be read: ${String(error.message ?? 'unreadable').slice(0, 200)}. Send UTF-8 form ` +
      `fields (JSON at /register).`,
  });
}
