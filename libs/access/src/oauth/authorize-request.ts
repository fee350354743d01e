// /authorize is checked here before the MCP SDK's handler sees it (RFC 6749 4.1.1 and 4.1.2.1, RFC 7636,
// RFC 8707, RFC 9207). A request whose client or redirect address is wrong is answered here with 400:
// it may not be sent anywhere. Any other mistake goes back to the redirect address with the client's
// state, the issuer and one sentence naming the fix (the SDK would send its validator's dump, without
// state). What passes goes on to the SDK's handler and then OAuthProvider.authorize.
import express, { NextFunction, Request, Response } from 'express';
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { isCodeChallenge, isToolDoorResource, toolDoorResource } from '@app/workspaces';
import { authorizeRedirect } from './consent-request';

/** The parameters of an authorize request: its query, or its form body when posted. */
export function authorizeParamsOf(req: Request): Record<string, unknown> {
  return ((req.method === 'POST' ? req.body : req.query) ?? {}) as Record<string, unknown>;
}

interface AuthorizeRefusal {
  error: 'invalid_request' | 'unsupported_response_type' | 'invalid_target';
  description: string;
}

/** Why an authorize request (its client and redirect address already checked) cannot be granted, or null. */
export function authorizeRequestRefusal(params: Record<string, unknown>, baseUrl: string): AuthorizeRefusal | null {
  const once = ['response_type', 'code_challenge', 'code_challenge_method', 'state', 'scope'].find(
    (name) => params[name] !== undefined && typeof params[name] !== 'string',
  );
  if (once) return invalid(`Send ${once} once, as text.`);
  if (params.response_type !== 'code')
    return {
      error: 'unsupported_response_type',
      description: 'Send response_type=code: this server issues authorization codes only.',
    };
  if (params.code_challenge === undefined)
    return invalid('Send code_challenge: the S256 PKCE challenge of a code verifier (RFC 7636).');
  if (!isCodeChallenge(params.code_challenge as string))
    return invalid(
      "code_challenge must be 43 to 128 letters, digits, '-', '.', '_' or '~' (RFC 7636): send the base64url " +
        'SHA-256 of the code verifier.',
    );
  if (params.code_challenge_method !== 'S256') return invalid('Send code_challenge_method=S256: no other is taken.');
  const resource = params.resource;
  if (resource !== undefined && (typeof resource !== 'string' || !isToolDoorResource(resource, baseUrl)))
    return {
      error: 'invalid_target',
      description: `Ask for the tool door, or name no resource: resource=${toolDoorResource(baseUrl)}.`,
    };
  return null;
}

/** The check in front of the SDK's /authorize handler. */
export function authorizeRequestCheck(clients: OAuthRegisteredClientsStore, baseUrl: string) {
  const form = express.urlencoded({ extended: false });
  const check = async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'POST') return next(); // the SDK answers 405
    const params = authorizeParamsOf(req);
    const { client_id: clientId, redirect_uri: named } = params;
    if (typeof clientId !== 'string')
      return refuse(res, 'invalid_request', 'Send client_id once: the id /register gave the client.');
    if (named !== undefined && typeof named !== 'string')
      return refuse(res, 'invalid_request', 'Send redirect_uri once.');
    if (named?.includes('#'))
      return refuse(res, 'invalid_request', 'redirect_uri may not carry a fragment (#): send it as it was registered.');
    const client = await clients.getClient(clientId);
    if (!client)
      return refuse(res, 'invalid_client', 'client_id is no registered client: register at /register first.');
    let redirectUri: string;
    if (named !== undefined) {
      if (!client.redirect_uris.some((registered) => redirectUriMatches(named, String(registered))))
        return refuse(res, 'invalid_request', 'redirect_uri is not one the client registered: send one of those.');
      redirectUri = named;
    } else if (client.redirect_uris.length === 1) redirectUri = String(client.redirect_uris[0]);
    else return refuse(res, 'invalid_request', 'Send redirect_uri: the client registered more than one.');
    const refused = authorizeRequestRefusal(params, baseUrl);
    if (!refused) return next();
    res.setHeader('Cache-Control', 'no-store');
    const state = typeof params.state === 'string' ? params.state : undefined;
    res.redirect(
      302,
      authorizeRedirect(redirectUri, baseUrl, { error: refused.error, error_description: refused.description, state }),
    );
  };
  const answer = (req: Request, res: Response, next: NextFunction) =>
    void check(req, res, next).catch(() =>
      res.status(500).json({ error: 'server_error', error_description: 'The service could not finish: try again.' }),
    );
  return [form, answer];
}

const invalid = (description: string): AuthorizeRefusal => ({ error: 'invalid_request', description });

function refuse(res: Response, error: string, description: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.status(400).json({ error, error_description: description });
}
