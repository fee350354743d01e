// docs/security.md#graphql-no-caller-can-stall-the-service: statements of a GraphQL read run under a
// statement timeout; outside a read scope the same pooled connection runs under every statement's
// (DATABASE_STATEMENT_TIMEOUT_MS) again. One connection, so both share it.
import { readScope } from '@app/platform';
import { useApp } from './harness';

const t = useApp({ env: { DATABASE_POOL_SIZE: '1', DATABASE_STATEMENT_TIMEOUT_MS: '20000' } });

describe('the read scope bounds statement time', () => {
  it('a statement inside an armed scope is cancelled at its timeout (57014)', async () => {
    await expect(readScope.run({ timeoutMs: 100 }, () => t.db.query('SELECT pg_sleep(2)'))).rejects.toMatchObject({
      driverError: { code: '57014' },
    });
  });

  it("the same connection outside the scope has every statement's timeout again", async () => {
    await readScope.run({ timeoutMs: 100 }, () => t.db.query('SELECT 1'));
    const [{ statement_timeout }] = await t.db.query('SHOW statement_timeout');
    expect(statement_timeout).toBe('20s');
    await expect(t.db.query('SELECT pg_sleep(0.3)')).resolves.toBeDefined();
  });

  it('a scope not armed (a mutation) sets no timeout of its own', async () => {
    const [{ statement_timeout }] = await readScope.run({ timeoutMs: 0 }, () => t.db.query('SHOW statement_timeout'));
    expect(statement_timeout).toBe('20s');
  });

  it('an armed scope shows its timeout', async () => {
    const [{ statement_timeout }] = await readScope.run({ timeoutMs: 1500 }, () =>
      t.db.query('SHOW statement_timeout'),
    );
    expect(statement_timeout).toBe('1500ms');
  });
});
