import { formatGraphqlError } from './format-error';

describe('GraphQL errors keep the REST codes and statuses', () => {
  it('a refusal keeps its code and sentence, with its HTTP status', () => {
    expect(
      formatGraphqlError({ message: 'Only owners.', path: ['x'], extensions: { code: 'forbidden', status: 403 } }),
    ).toEqual({
      message: 'Only owners.',
      path: ['x'],
      extensions: { code: 'forbidden', status: 403 },
    });
  });

  it("a query the schema refuses is invalid_field (400) with GraphQL's own sentence", () => {
    const formatted = formatGraphqlError({
      message: 'Cannot query field "nope" on type "Query".',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(formatted).toMatchObject({
      message: 'Cannot query field "nope" on type "Query".',
      extensions: { code: 'invalid_field', status: 400 },
    });
  });

  it('anything else is server_error (500) and shows nothing of its cause', () => {
    const formatted = formatGraphqlError({
      message: 'relation "x" does not exist',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(formatted).toEqual({
      message: 'The service could not finish; nothing was changed; send it again.',
      extensions: { code: 'server_error', status: 500 },
    });
  });
});
