// An authorize request's own mistakes, each answered at the redirect address with one sentence.
import { authorizeRequestRefusal } from './authorize-request';

const BASE = 'https://lifeline.example';
const good = {
  response_type: 'code',
  client_id: 'cli_1',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  state: 'st',
};

describe('authorizeRequestRefusal', () => {
  it('takes a code request with an S256 challenge, with the tool door as resource or none', () => {
    expect(authorizeRequestRefusal(good, BASE)).toBeNull();
    expect(authorizeRequestRefusal({ ...good, resource: `${BASE}/api/mcp` }, BASE)).toBeNull();
  });

  it.each([
    [{ code_challenge: 'abc' }, 'invalid_request', '43 to 128'],
    [{ code_challenge: undefined }, 'invalid_request', 'Send code_challenge'],
    [{ code_challenge_method: 'plain' }, 'invalid_request', 'S256'],
    [{ response_type: 'token' }, 'unsupported_response_type', 'response_type=code'],
    [{ state: ['a', 'b'] }, 'invalid_request', 'state once'],
    [{ resource: 'https://other.example/api/mcp' }, 'invalid_target', `resource=${BASE}/api/mcp`],
    [{ resource: [`${BASE}/api/mcp`, `${BASE}/api/mcp`] }, 'invalid_target', 'tool door'],
  ])('refuses %j with %s', (change, error, words) => {
    const refused = authorizeRequestRefusal({ ...good, ...change }, BASE);
    expect(refused?.error).toBe(error);
    expect(refused?.description).toContain(words);
    expect(refused!.description.length).toBeLessThan(200);
  });
});
