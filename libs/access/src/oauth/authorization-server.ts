// The authorization server's endpoints, from the MCP SDK's own handlers: RFC 8414
// metadata, RFC 7591 registration, /authorize (code with PKCE S256), /token (code and refresh grants)
// and RFC 7009 /revoke. The protected resource metadata (RFC 9728) stays the tool door's own
// (libs/mcp), naming this server. An issuer must be https, or http on a loopback address; it is BASE_URL
// exactly as the resource metadata names it (docs/decisions.md#the-issuer-is-base_url-as-written).
import type { Logger } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { registrationRefusal } from '@app/workspaces';
import { authorizeRequestCheck } from './authorize-request';
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
    metadata = {
      ...createOAuthMetadata({ provider, issuerUrl, serviceDocumentationUrl: new URL(`${baseUrl}/sign-in`) }),
      // The SDK writes issuerUrl.href (`http://host/`); RFC 8414 section 3.3 compares it as a string with the
      // authorization_servers entry of the resource metadata, which is BASE_URL.
      issuer: baseUrl,
      // Every client is public (PKCE, no secret): no endpoint takes a client secret.
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
    };
  } catch (error) {
    logger.warn(
      `connectors cannot sign in at the tool door: ${(error as Error).message} (BASE_URL ${baseUrl} must be ` +
        `https, or http on localhost)`,
    );
    return false;
  }
  app.use(AUTHORIZATION_SERVER_METADATA, metadataHandler(metadata));
  app.use('/authorize', ...authorizeRequestCheck(provider.clientsStore, baseUrl), authorizationHandler({ provider }));
  app.use('/token', tokenHandler({ provider }));
  app.use(
    '/register',
    express.json(),
    registrationCheck,
    clientRegistrationHandler({ clientsStore: provider.clientsStore, clientSecretExpirySeconds: 0 }),
  );
  app.use('/revoke', revocationHandler({ provider }));
  // A body the SDK's readers could not take (a charset other than UTF-8, a broken encoding, too large)
  // is the client's mistake: an OAuth error, never a 500.
  app.use(['/register', '/token', '/revoke', '/authorize'], unreadableRequest);
  return true;
}

/**
 * A registration is checked before the SDK's handler reads it, so a refusal names its fix in a sentence rather than
 * the SDK validator's dump; ConnectionsService.register applies the same rule again to what the SDK passes on.
 */
function registrationCheck(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'POST') return next(); // the SDK answers preflights and 405
  const refused = registrationRefusal(req.body);
  if (!refused) return next();
  res
    .status(400)
    .setHeader('Cache-Control', 'no-store')
    .setHeader('Access-Control-Allow-Origin', '*')
    .json({ error: refused.code, error_description: refused.message });
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
