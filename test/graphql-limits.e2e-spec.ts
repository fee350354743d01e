// docs/security.md#graphql-no-caller-can-stall-the-service: depth, alias, node and cost limits,
// `first` at most 100, a rate limit per key; a query that would stall the service is refused before it runs.
import { LIMITS, RateLimits } from '@app/platform';
import { MAX_PAGE_SIZE, QUERY_LIMITS } from '@app/edge';
import { WorkspacesService } from '@app/workspaces';
import { memberKey, useApp, useWorkspace } from './harness';

const t = useApp();
const ws = useWorkspace(t, {}, 'all');

beforeAll(async () => {
  // Enough people with timelines that an unbounded read would be real work.
  const events = Array.from({ length: 100 }, (_, i) => ({
    type: 'pageview',
    anon_id: `visitor-${i % 40}`,
    properties: { i },
  }));
  const answer = await t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { events } });
  expect(answer.status).toBe(200);
});

const member = (query: string, variables: Record<string, unknown> = {}) =>
  t.request('POST', '/graphql', { key: ws.secretKey, body: { query, variables } });

function refusedAsInvalidField(answer: { status: number; body: any }, pattern: RegExp) {
  expect(answer.status).toBe(400);
  expect(answer.body.data ?? null).toBeNull();
  expect(answer.body.errors).toEqual([
    { message: expect.stringMatching(pattern), extensions: { code: 'invalid_field', status: 400 } },
  ]);
}

describe('a 300-alias query', () => {
  const aliases = Array.from(
    { length: 300 },
    (_, i) =>
      `a${i}: people(first: 100000) { edges { node { id timeline { edges { node { id type properties } } } } } }`,
  ).join('\n');

  it('is refused within a second while a concurrent event post is answered normally', async () => {
    const started = Date.now();
    let elapsed = Infinity;
    const [query, post] = await Promise.all([
      member(`{ ${aliases} }`).then((answer) => {
        elapsed = Date.now() - started;
        return answer;
      }),
      t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { type: 'signup', email: 'during@example.com' } }),
    ]);
    refusedAsInvalidField(query, /300 aliases; at most 30/);
    expect(elapsed).toBeLessThan(1000);
    expect(post.status).toBe(200);
    expect(post.body).toEqual({ ok: true, status: 'recorded', id: expect.any(String) });
  });

  it('with few aliases it is still refused, for its page size', async () => {
    refusedAsInvalidField(
      await member('{ a: people(first: 100000) { edges { node { id } } } }'),
      /^first must be a whole number from 1 to 100/,
    );
  });
});

describe(`first is at most ${MAX_PAGE_SIZE} everywhere`, () => {
  it.each([
    ['people, literal', '{ people(first: 101) { edges { node { id } } } }', {}, /^first /],
    [
      'people, through a variable',
      'query($f: Int) { people(first: $f) { edges { node { id } } } }',
      { f: 5000 },
      /^first /,
    ],
    [
      'a nested timeline',
      '{ people(first: 1) { edges { node { timeline(first: 500) { edges { node { id } } } } } } }',
      {},
      /^first /,
    ],
    ['zero', '{ people(first: 0) { edges { node { id } } } }', {}, /^first /],
    ['messages page limit', '{ messages(limit: 1000) { messages { id } } }', {}, /^limit /],
  ])('%s is refused', async (_name, query, variables, pattern) => {
    refusedAsInvalidField(await member(query, variables), pattern);
  });

  it('100 is accepted and answers', async () => {
    const answer = await member(
      '{ people(first: 100) { edges { node { id timeline(first: 100) { edges { node { id } } } } } } }',
    );
    expect(answer.body.errors).toBeUndefined();
    const people = Number(
      (await t.db.query('SELECT count(*) AS n FROM people WHERE workspace_id = $1', [ws.workspace.id]))[0].n,
    );
    expect(answer.body.data.people.edges).toHaveLength(people);
  });
});

// Depth is proven in libs/edge/src/graphql/query-limits.spec.ts: this schema nests at most 3 levels.
describe('node and cost limits', () => {
  it('fragments are expanded when counting cost', async () => {
    const query = `fragment P on Person { id timeline(first: 100) { edges { node { id type } } } }
      { a: people(first: 100) { edges { node { ...P } } } b: people(first: 100) { edges { node { ...P } } } c: people(first: 100) { edges { node { ...P } } } }`;
    refusedAsInvalidField(await member(query), /could read about \d+ items, over the limit of 20000/);
  });

  it('a cheap query with aliases under the limit runs', async () => {
    const query = `{ ${Array.from({ length: QUERY_LIMITS.aliases }, (_, i) => `l${i}: lists { id }`).join(' ')} }`;
    const answer = await member(query);
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
  });

  it('a document over the token budget is refused before validation', async () => {
    const answer = await member(`{ ${'lists { id } '.repeat(5_000)} }`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].message).toMatch(/more th\w+ 10000 tokens/);
  });

  it('introspection (GraphiQL) still runs', async () => {
    const answer = await member(
      '{ __schema { types { name fields { name args { name type { name kind ofType { name kind ofType { name } } } } } } } }',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.__schema.types.length).toBeGreaterThan(10);
  });
});

describe('variables that do not fit their types', () => {
  const CREATE_LIST = 'mutation($i: CreateListInput!) { createList(input: $i) { address } }';

  it.each([
    [
      'an unknown field in an input',
      { i: { address: 'a', name: 'A', bogus: 1 } },
      'Variable "$i" got invalid value { address: "a", name: "A", bogus: 1 }; Field "bogus" is not defined by type "CreateListInput".',
    ],
    [
      'a field of the wrong type',
      { i: { address: 'a', name: 7 } },
      'Variable "$i" got invalid value 7 at "i.name"; String cannot represent a non string value: 7',
    ],
    ['a required input left out', {}, 'Variable "$i" of required type "CreateListInput!" was not provided.'],
  ])(
    "%s is refused with GraphQL's own sentence, as written inline, and nothing is made",
    async (_name, variables, message) => {
      const answer = await member(CREATE_LIST, variables);
      expect(answer.status).toBe(400);
      expect(answer.body.data ?? null).toBeNull();
      expect(answer.body.errors).toEqual([
        { message, locations: expect.any(Array), extensions: { code: 'invalid_field', status: 400 } },
      ]);
      const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM lists WHERE workspace_id = $1', [
        ws.workspace.id,
      ]);
      expect(n).toBe(0);
    },
  );

  it('the same mistake written inline gets the same kind of answer', async () => {
    const answer = await member('mutation { createList(input: { address: "a", name: "A", bogus: 1 }) { address } }');
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      {
        message: 'Field "bogus" is not defined by type "CreateListInput".',
        locations: expect.any(Array),
        extensions: { code: 'invalid_field', status: 400 },
      },
    ]);
  });

  it('variables that fit still count against the limits', async () => {
    refusedAsInvalidField(
      await member('query($f: Int) { people(first: $f) { edges { node { id } } } }', { f: 5000 }),
      /^first /,
    );
  });
});

describe('the HTTP status of a refusal (docs/graphql.md#pages-limits-and-refusals)', () => {
  const post = (query: string, key?: string) => t.request('POST', '/graphql', { key, body: { query } });

  it('refused while it runs (a field refused: the key, the role, the input): 200, the code and status in the error', async () => {
    const noKey = await post('{ lists { id } }');
    expect(noKey.status).toBe(200);
    expect(noKey.body.errors[0].extensions).toEqual({ code: 'invalid_key', status: 401 });
    const member = await memberKey(t, ws, 'reader@example.com');
    const role = await post(
      'mutation { createList(input: { address: "news", name: "News" }) { address } }',
      member.secretKey,
    );
    expect(role.status).toBe(200);
    expect(role.body.errors[0].extensions).toEqual({ code: 'forbidden', status: 403 });
    const badInput = await post('mutation { createList(input: { address: "", name: "" }) { address } }', ws.secretKey);
    expect(badInput.status).toBe(200);
    expect(badInput.body.errors[0].extensions).toEqual({ code: 'invalid_field', status: 400 });
  });

  it('refused before it runs (does not parse, not valid against the schema, over a limit): 400', async () => {
    for (const query of ['{ lists { id }', '{ lists { nope } }', '{ people(first: 101) { edges { node { id } } } }']) {
      const answer = await post(query, ws.secretKey);
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].extensions).toEqual({ code: 'invalid_field', status: 400 });
    }
    const big = await t.request('POST', '/graphql', {
      key: ws.secretKey,
      body: { query: '{ lists { id } }', variables: { pad: 'x'.repeat(300 * 1024) } },
    });
    expect(big.status).toBe(413);
    expect(JSON.stringify(big.body)).toContain('too_large');
  });
});

describe('a rate limit per key', () => {
  it(`over ${LIMITS.graphql} requests in ten minutes answers rate_limited, and other keys are not affected`, async () => {
    const other = await t.workspace();
    const auth = await t.app.get(WorkspacesService).authenticate(`Bearer ${other.secretKey}`);
    const limits = t.app.get(RateLimits);
    for (let i = 0; i < LIMITS.graphql; i += 100) {
      await Promise.all(Array.from({ length: 100 }, () => limits.consume('graphql', auth.keyId)));
    }
    const refused = await t.request('POST', '/graphql', { key: other.secretKey, body: { query: '{ lists { id } }' } });
    expect(refused.body.errors[0].extensions.code).toBe('rate_limited');
    const fine = await member('{ lists { id } }');
    expect(fine.body.errors).toBeUndefined();
  });
});
