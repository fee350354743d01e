// docs/security.md#graphql-no-caller-can-stall-the-service: depth, aliases, fields, cost and page size, on
// a schema made for it.
import { buildSchema, parse } from 'graphql';
import { documentSizeRefusal, queryLimitsError, QUERY_LIMITS } from './query-limits';

const schema = buildSchema(`
  type Query { node: Node, nodes(first: Int): [Node], search(filter: Filter): [Node], page(first: Int): NodeConnection, tags: [String] }
  input Filter { first: Int, name: String }
  type Node { name: String, child: Node, items(first: Int): [Node] }
  type NodeConnection { edges: [Node] }
`);

const check = (query: string, variables: Record<string, unknown> = {}) =>
  queryLimitsError(schema, parse(query), undefined, variables);
const nestedChildren = (levels: number) =>
  `{ ${'node { '.repeat(1)}${'child { '.repeat(levels - 1)}name${' }'.repeat(levels)} }`;

describe('depth', () => {
  it(`accepts ${QUERY_LIMITS.depth} levels and refuses one more`, () => {
    expect(check(nestedChildren(QUERY_LIMITS.depth))).toBeNull();
    expect(check(nestedChildren(QUERY_LIMITS.depth + 1))?.message).toMatch(/nests deeper than 10 levels/);
  });

  it('counts depth through fragments', () => {
    const query = `fragment F on Node { child { child { child { child { child { child { name } } } } } } } { node { child { child { child { child { ...F } } } } } }`;
    expect(check(query)?.extensions.code).toBe('invalid_field');
  });
});

describe('page size', () => {
  it.each([
    ['a literal first', '{ nodes(first: 101) { name } }', {}, /^first must be/],
    ['first in an input object', '{ search(filter: {first: 1000}) { name } }', {}, /^filter\.first must be/],
    ['first through a variable', 'query($n: Int) { nodes(first: $n) { name } }', { n: 100_000 }, /^first must be/],
    ['a negative first', '{ node { items(first: -1) { name } } }', {}, /^first must be/],
  ])('%s over 100 is refused', (_name, query, variables, message) => {
    const error = check(query, variables);
    expect(error?.extensions).toEqual({ code: 'invalid_field', status: 400, http: { status: 400 } });
    expect(error?.message).toMatch(message);
  });

  it('100 is accepted', () => {
    expect(check('{ nodes(first: 100) { name } }')).toBeNull();
  });
});

describe('cost', () => {
  it('multiplies what each item selects by the page size', () => {
    expect(check('{ nodes(first: 100) { items(first: 100) { name } } }')).toBeNull(); // 1 + 100 * (1 + 100 * 1) = 10,101
    expect(check('{ nodes(first: 100) { items(first: 100) { name child { name } } } }')?.message).toMatch(
      /could read about 30101 items/,
    );
  });

  it('counts an unpaged list as 10 items', () => {
    expect(check('{ nodes(first: 100) { items { items { name } } } }')).toBeNull(); // 1 + 100 * (1 + 10 * (1 + 10 * 1)) = 11,101
    expect(check('{ nodes(first: 100) { items { items { items { name } } } } }')?.message).toMatch(
      /could read about 111101 items/,
    );
  });

  it('does not count the edges of a connection twice', () => {
    expect(check('{ page(first: 100) { edges { items(first: 100) { name } } } }')).toBeNull();
  });

  it('leaves introspection alone', () => {
    expect(
      check('{ __schema { types { name fields { name args { name type { name ofType { name } } } } } } }'),
    ).toBeNull();
  });
});

describe('variables that do not fit their types', () => {
  it.each([
    ['an unknown field in an input', { f: { first: 1, bogus: 1 } }],
    ['a field of the wrong type', { f: { name: 7 } }],
  ])('%s is left to the execution, which refuses it in its own words (no limit is said broken)', (_name, variables) => {
    expect(check('query($f: Filter) { search(filter: $f) { name } }', variables)).toBeNull();
  });

  it('variables that fit are still counted', () => {
    expect(check('query($f: Filter) { search(filter: $f) { name } }', { f: { first: 1000 } })?.message).toMatch(
      /^filter\.first must be/,
    );
  });
});

describe('document size, before validation', () => {
  it(`refuses more than ${QUERY_LIMITS.aliases} aliases`, () => {
    const query = `{ ${Array.from({ length: QUERY_LIMITS.aliases + 1 }, (_, i) => `a${i}: node { name }`).join(' ')} }`;
    expect(documentSizeRefusal(query)?.message).toMatch(/31 aliases; at most 30/);
    expect(documentSizeRefusal(query.replace(/a0: /, ''))).toBeNull();
  });

  it(`refuses more than ${QUERY_LIMITS.fields} fields as written`, () => {
    expect(documentSizeRefusal(`{ ${'tags '.repeat(QUERY_LIMITS.fields + 1)}}`)?.message).toMatch(
      /501 fields; at most 500/,
    );
    expect(documentSizeRefusal(`{ ${'tags '.repeat(QUERY_LIMITS.fields)}}`)).toBeNull();
  });

  it('refuses a string literal holding a NUL', () => {
    expect(documentSizeRefusal('{ search(filter: {name: "a\\u0000b"}) { name } }')?.message).toMatch(
      /^A string in the query contains a NUL character/,
    );
    // graphql-js refuses a lone surrogate escape as a syntax error itself; Apollo answers that.
    expect(documentSizeRefusal('{ search(filter: {name: "\\ud800"}) { name } }')).toBeNull();
    expect(documentSizeRefusal('{ search(filter: {name: "😀"}) { name } }')).toBeNull();
  });

  it('leaves what does not parse to Apollo', () => {
    expect(documentSizeRefusal('{ node { ')).toBeNull();
    expect(documentSizeRefusal(undefined)).toBeNull();
  });
});

describe('queryLimitsPlugin arms the read scope for queries only', () => {
  const { queryLimitsPlugin } = jest.requireActual('./query-limits') as typeof import('./query-limits');
  const { readScope } = jest.requireActual('@app/platform') as typeof import('@app/platform');

  async function scopeAfter(source: string): Promise<{ timeoutMs: number; replica?: boolean }> {
    const plugin = queryLimitsPlugin(1234);
    await plugin.serverWillStart!({ schema } as never);
    const listener = (await plugin.requestDidStart!({} as never))!;
    const document = parse(source);
    const operation = document.definitions[0] as never;
    const scope = { timeoutMs: 0 };
    await readScope.run(scope, () =>
      listener.didResolveOperation!({ document, operation, operationName: null, request: { variables: {} } } as never),
    );
    return scope;
  }

  it('a query gets the statement timeout and may read the replica', async () => {
    expect(await scopeAfter('{ node { name } }')).toEqual({ timeoutMs: 1234, replica: true });
  });

  it('a mutation does not', async () => {
    expect(await scopeAfter('mutation { node { name } }')).toEqual({ timeoutMs: 0 });
  });
});
