import { DATABASE_OUTAGE, Outage, REDIS_OUTAGE } from '../runtime/outage';
import { busyRefusal, DatabaseUnavailable, isConnectionFailure, unavailableRefusal } from './unavailable';

describe('which errors mean the database or Redis is away', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, true],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, true],
    [{ code: '08006' }, true],
    [new Error('Connection terminated unexpectedly'), true],
    [new Error('Connection terminated due to connection timeout'), true],
    [new Error('Connection terminated'), false], // the pool ending its own connection
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }, false],
    [{ code: '57014', message: 'canceling statement due to statement timeout' }, false],
  ])('%j: %s', (error, failure) => expect(isConnectionFailure(error)).toBe(failure));

  it("a DatabaseUnavailable, also inside TypeORM's driverError or a cause, is 503 unavailable with Retry-After, counted", () => {
    const refusal = unavailableRefusal({ driverError: new DatabaseUnavailable('PostgreSQL cannot be reached') });
    expect(refusal?.toBody()).toMatchObject({
      ok: false,
      error: 'unavailable',
      message: expect.stringMatching(/nothing was changed; send it again/),
    });
    expect(refusal?.status).toBe(503);
    expect(refusal?.extra.retryAfter).toBe(5);
    expect(unavailableRefusal(new Error('outer', { cause: new DatabaseUnavailable('x') }))?.code).toBe('unavailable');
    expect(unavailableRefusal(new Error('timeout exceeded when trying to connect'))?.code).toBe('unavailable');
  });

  it('a COMMIT that got no answer says the change may have been written', () => {
    expect(unavailableRefusal(new DatabaseUnavailable('x', true))?.message).toMatch(
      /may have been written: send it again .*idempotency_key/,
    );
  });

  it.each([
    'Command timed out',
    "Stream isn't writeable and enableOfflineQueue options is false",
    'Connection is closed.',
  ])('Redis: %s', (message) => {
    expect(unavailableRefusal(new Error(message))?.message).toMatch(/cannot reach Redis/);
  });

  it('anything else is not unavailability', () => {
    expect(unavailableRefusal(new Error('boom'))).toBeNull();
    expect(unavailableRefusal({ code: '23505' })).toBeNull();
  });

  it('the process being full answers 503 unavailable, Retry-After 1', () => {
    expect(busyRefusal()).toMatchObject({ code: 'unavailable', status: 503, extra: { retryAfter: 1 } });
  });

  it('one outage per process for each', () => {
    expect([DATABASE_OUTAGE.name, REDIS_OUTAGE.name]).toEqual(['PostgreSQL', 'Redis']);
  });
});

describe('an outage logs twice: when it begins and when it ends, with the refusals between', () => {
  it('once each way, however often it is noted', () => {
    const lines: string[] = [];
    const outage = new Outage('PostgreSQL');
    outage.log = (line) => lines.push(line);
    outage.begin('no answer within 1000 ms');
    outage.begin('connect ECONNREFUSED');
    for (let i = 0; i < 3; i++) outage.refused();
    outage.end();
    outage.end();
    expect(lines).toEqual([
      'PostgreSQL cannot be reached (no answer within 1000 ms): requests that need it answer 503 unavailable until it is back.',
      expect.stringMatching(/^PostgreSQL answers again after \d+\.\d s; 3 requests were refused meanwhile\.$/),
    ]);
    expect(outage.down).toBe(false);
  });
});
