import { ADVANCE_RUN } from './run.job';

describe('the advance-run payload', () => {
  it('reads what the release before versions queued (no v) as version 1', () => {
    expect(ADVANCE_RUN.read({ data: { workspaceId: 'ws_1', runId: 'run_1' } })).toEqual({
      workspaceId: 'ws_1',
      runId: 'run_1',
    });
  });

  it('reads back what its producers queue', () => {
    const data = { workspaceId: 'ws_1', runId: 'run_1' };
    expect(ADVANCE_RUN.payload(data)).toEqual({ ...data, v: 1 });
    expect(ADVANCE_RUN.read({ data: ADVANCE_RUN.payload(data) })).toEqual(data);
  });

  it('refuses a payload without its run', () => {
    expect(() => ADVANCE_RUN.read({ data: { workspaceId: 'ws_1', v: 1 } })).toThrow(
      'Job automations/advance-run: the payload is version 1 (this process serves version 1) and is not valid: ' +
        'runId: Invalid input: expected string, received undefined.',
    );
  });
});
