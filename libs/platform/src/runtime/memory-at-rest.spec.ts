import { AT_START, nextRest, optimizesForSizeAlready, REST_LIMITS, RestSample, RestState } from './memory-at-rest';

const MB = 2 ** 20;
const quiet = (at: number, youngBytes = 128 * MB): RestSample => ({ at, utilization: 0.05, youngBytes });
const busy = (at: number): RestSample => ({ at, utilization: 0.9, youngBytes: 128 * MB });

/** The actions of a run of checks from the start. */
function actions(samples: RestSample[]): string[] {
  let state: RestState = AT_START;
  return samples.map((sample) => {
    const next = nextRest(state, sample);
    state = next.state;
    return next.action;
  });
}

describe('memory at rest: when V8 is asked to give back the young generation', () => {
  it('asks after three quiet checks in a row, and finishes once the young generation is back under 16 MB', () => {
    expect(actions([quiet(1), quiet(2), quiet(3), quiet(4), quiet(5, 1 * MB)])).toEqual([
      'none',
      'none',
      'ask',
      'none',
      'finish',
    ]);
  });

  it('a busy check starts the count again; busy while asking withdraws the ask (never a collection under load)', () => {
    expect(actions([quiet(1), quiet(2), busy(3), quiet(4), quiet(5), quiet(6), busy(7), quiet(8)])).toEqual([
      'none',
      'none',
      'none',
      'none',
      'none',
      'ask',
      'withdraw',
      'none',
    ]);
  });

  it('finishes at once when the young generation never grew past what a collection is worth', () => {
    expect(actions([quiet(1, REST_LIMITS.grownYoungBytes)])).toEqual(['finish']);
  });

  it('gives up when V8 has not answered within askForMs (its reducer had nothing scheduled)', () => {
    const asked = 3_000;
    expect(
      actions([
        quiet(1_000),
        quiet(2_000),
        quiet(asked),
        quiet(asked + REST_LIMITS.askForMs - 1),
        quiet(asked + REST_LIMITS.askForMs),
      ]),
    ).toEqual(['none', 'none', 'ask', 'none', 'finish']);
  });

  it("leaves an operator's own --optimize-for-size alone", () => {
    expect(optimizesForSizeAlready(['--optimize-for-size'], '')).toBe(true);
    expect(optimizesForSizeAlready([], '--max-semi-space-size=64 --optimize_for_size')).toBe(true);
    expect(optimizesForSizeAlready(['--max-semi-space-size=64'], '')).toBe(false);
  });
});
