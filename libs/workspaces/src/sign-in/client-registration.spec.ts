// What a connector may register: https or loopback addresses, no fragment, and the limits.
import { REGISTRATION_LIMITS, registrationRefusal } from './client-registration';

const base = {
  redirect_uris: ['http://127.0.0.1:9/callback'],
  client_name: 'Claude',
  token_endpoint_auth_method: 'none',
};

describe('registrationRefusal', () => {
  it('takes a usual registration, and https or loopback addresses for the client itself', () => {
    expect(registrationRefusal(base)).toBeNull();
    expect(
      registrationRefusal({
        ...base,
        client_uri: 'https://claude.ai',
        logo_uri: '',
        policy_uri: 'https://claude.ai/privacy',
        tos_uri: 'http://localhost:8080/terms',
      }),
    ).toBeNull();
    expect(registrationRefusal({ ...base, redirect_uris: Array(10).fill('https://app.example/cb') })).toBeNull();
    expect(registrationRefusal({ ...base, client_name: 'n'.repeat(200) })).toBeNull();
  });

  it.each([
    ['policy_uri', 'javascript:alert(1)'],
    ['tos_uri', 'data:text/html,hi'],
    ['client_uri', 'http://app.example'],
    ['logo_uri', 'ftp://app.example/logo.png'],
    ['jwks_uri', 'not an address'],
  ])('refuses %s %s with invalid_client_metadata and the fix', (field, value) => {
    const refused = registrationRefusal({ ...base, [field]: value });
    expect(refused?.code).toBe('invalid_client_metadata');
    expect(refused?.message).toContain(`${field} `);
    expect(refused?.message).toContain('give an https address');
  });

  it('refuses a redirect address with a fragment, none at all, or more than 10', () => {
    expect(registrationRefusal({ ...base, redirect_uris: ['https://app.example/cb#x'] })?.code).toBe(
      'invalid_redirect_uri',
    );
    expect(registrationRefusal({ ...base, redirect_uris: [] })?.code).toBe('invalid_redirect_uri');
    const many = registrationRefusal({ ...base, redirect_uris: Array(11).fill('https://app.example/cb') });
    expect(many).toEqual({ code: 'invalid_redirect_uri', message: expect.stringContaining('at most 10') });
  });

  it('refuses a client_name over 200 characters, a registration over 8 KB, and what is no object', () => {
    expect(registrationRefusal({ ...base, client_name: 'n'.repeat(201) })).toEqual({
      code: 'invalid_client_metadata',
      message: expect.stringContaining('at most 200 characters'),
    });
    expect(
      registrationRefusal({ ...base, software_statement: 's'.repeat(REGISTRATION_LIMITS.metadataBytes) })?.message,
    ).toContain('larger than 8 KB');
    expect(registrationRefusal([base])?.code).toBe('invalid_client_metadata');
    expect(registrationRefusal(undefined)?.code).toBe('invalid_client_metadata');
  });
});
