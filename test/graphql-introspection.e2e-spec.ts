// GraphQL introspection in production (docs/graphql.md#the-schema): open to whoever the admin API lets in (a
// member's key or session, the operator), refused to anyone else with a sentence naming the SDL's address,
// /api/schema.graphql, which answers GET and HEAD to anybody.
import { SESSION_COOKIE } from '@app/workspaces';
import { ADMIN_TOKEN, useApp, useWorkspace } from './harness';

const t = useApp({ env: { NODE_ENV: 'production', UNSAFE_ALLOW_PRIVATE_TARGETS: '' } });
const ws = useWorkspace(t, {}, 'all');
const SCHEMA = '{ __schema { queryType { name } } }';
const TYPE = '{ __type(name: "Person") { name } }';

async function graphql(query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: await response.json() };
}
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('introspection in production', () => {
  it('runs for a member, by key or signed-in session, and for the operator', async () => {
    expect(t.config.nodeEnv).toBe('production');
    for (const headers of [bearer(ws.secretKey), bearer(ADMIN_TOKEN)]) {
      expect(await graphql(SCHEMA, headers)).toEqual({
        status: 200,
        body: { data: { __schema: { queryType: { name: 'Query' } } } },
      });
      expect((await graphql(TYPE, headers)).body).toEqual({ data: { __type: { name: 'Person' } } });
    }
    const signIn = await fetch(`${t.url}/sign-in/key`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(t.url).origin },
      body: new URLSearchParams({ key: ws.secretKey }).toString(),
    });
    const cookie = new RegExp(`${SESSION_COOKIE}=[^;]+`).exec(signIn.headers.get('set-cookie') ?? '')![0];
    expect((await graphql(SCHEMA, { cookie, origin: new URL(t.url).origin })).body).toEqual({
      data: { __schema: { queryType: { name: 'Query' } } },
    });
  });

  it.each([
    ['no key', {}, 401, 'invalid_key'],
    ['an unknown key', bearer('sk_live_nothing'), 401, 'invalid_key'],
    ['a public key', () => bearer(ws.publicKey), 401, 'invalid_key'],
  ])('is refused with %s, naming the SDL at /api/schema.graphql', async (_name, headers, status, code) => {
    for (const query of [
      SCHEMA,
      TYPE,
      `query Named { lists { id } ...Meta } fragment Meta on Query { __schema { description } }`,
    ]) {
      const answer = await graphql(query, typeof headers === 'function' ? headers() : headers);
      expect(answer.status).toBe(status);
      expect(answer.body.data ?? null).toBeNull();
      expect(answer.body.errors).toEqual([
        {
          message: expect.stringContaining(`${t.url}/api/schema.graphql`),
          extensions: { code, status },
        },
      ]);
    }
  });

  it('the sentence says who may introspect, how to send a key, and where the SDL is', async () => {
    expect((await graphql(SCHEMA)).body.errors[0].message).toBe(
      'Introspection (__schema, __type) answers workspace members only: Send your secret key as ' +
        '"Authorization: Bearer sk_live_…"; find it in the workspace developer settings. The schema is also ' +
        `served as SDL to anybody at ${t.url}/api/schema.graphql.`,
    );
  });

  it('a query that does not introspect is not affected: __typename answers anybody', async () => {
    expect(await graphql('{ __typename }')).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
  });
});

describe('/api/schema.graphql', () => {
  it('answers GET and HEAD to anybody; other methods 405 with Allow: GET, HEAD', async () => {
    const get = await fetch(`${t.url}/api/schema.graphql`);
    expect(get.status).toBe(200);
    const sdl = await get.text();
    expect(sdl).toMatch(/^type Query \{/m);
    const head = await fetch(`${t.url}/api/schema.graphql`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(sdl)));
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const other = await fetch(`${t.url}/api/schema.graphql`, { method });
      expect(other.status).toBe(405);
      expect(other.headers.get('allow')).toBe('GET, HEAD');
      expect(await other.json()).toMatchObject({ ok: false, error: 'method_not_allowed' });
    }
  });
});
