// What a connector may register (RFC 7591), as a pure rule: its redirect addresses, the addresses it
// gives for itself (shown on the consent page), and limits on what is stored for it.
// docs/decisions.md#connector-registration-limits has the figures and why.
import { redirectUriRefusal, webAddressRefusal } from './sign-in-rules';

export const REGISTRATION_LIMITS = {
  /** Redirect addresses per client: a desktop client registers one or two. */
  redirectUris: 10,
  /** client_name, shown on the consent page and in connectedApps. */
  clientNameChars: 200,
  /** The whole registration as JSON (UTF-8 bytes). */
  metadataBytes: 8 * 1024,
} as const;

/** The addresses a client gives for itself: each must be https, or http to a loopback address. */
const CLIENT_ADDRESS_FIELDS = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'jwks_uri'] as const;

export interface RegistrationRefusal {
  code: 'invalid_redirect_uri' | 'invalid_client_metadata';
  message: string;
}

/** Why a registration cannot be kept, or null when it can. */
export function registrationRefusal(registration: unknown): RegistrationRefusal | null {
  if (typeof registration !== 'object' || registration === null || Array.isArray(registration))
    return metadata('Send the registration as a JSON object (Content-Type: application/json).');
  const r = registration as Record<string, unknown>;
  const uris = r.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.some((uri) => typeof uri !== 'string'))
    return redirect('Register at least one redirect_uris address, as an array of strings.');
  if (uris.length > REGISTRATION_LIMITS.redirectUris)
    return redirect(
      `Register at most ${REGISTRATION_LIMITS.redirectUris} redirect_uris (${uris.length} were sent): keep the ` +
        'addresses the client really listens on.',
    );
  for (const uri of uris as string[]) {
    const problem = redirectUriRefusal(uri);
    if (problem) return redirect(`${problem}: register an https or loopback http address without a fragment.`);
  }
  if (r.client_name !== undefined) {
    if (typeof r.client_name !== 'string') return metadata('client_name must be a string: the name people see.');
    if (r.client_name.length > REGISTRATION_LIMITS.clientNameChars)
      return metadata(
        `client_name must be at most ${REGISTRATION_LIMITS.clientNameChars} characters: send a shorter name.`,
      );
  }
  for (const field of CLIENT_ADDRESS_FIELDS) {
    const value = r[field];
    if (value === undefined || value === '') continue; // '' is taken as absent, as the MCP SDK does
    if (typeof value !== 'string') return metadata(`${field} must be a string: an https address.`);
    const problem = webAddressRefusal(value);
    if (problem) return metadata(`${field} ${problem}: give an https address, or leave ${field} out.`);
  }
  if (Buffer.byteLength(JSON.stringify(r), 'utf8') > REGISTRATION_LIMITS.metadataBytes)
    return metadata(
      `The registration is larger than ${REGISTRATION_LIMITS.metadataBytes / 1024} KB: send only the metadata the ` +
        'client needs (redirect_uris, client_name, grant_types, token_endpoint_auth_method).',
    );
  return null;
}

const metadata = (message: string): RegistrationRefusal => ({ code: 'invalid_client_metadata', message });
const redirect = (message: string): RegistrationRefusal => ({ code: 'invalid_redirect_uri', message });
