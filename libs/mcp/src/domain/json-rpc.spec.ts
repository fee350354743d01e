import { batchAnswerText, callsIn, emptyBatchAnswer, INVALID_PARAMS, INVALID_REQUEST, toolCallError } from './json-rpc';

const TOOLS = ['track_event', 'send_email'];

describe('what a post spends of the rate limit', () => {
  it.each([
    ['a single message', { jsonrpc: '2.0', id: 1, method: 'ping' }, 1],
    ['a batch of 100', Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' })), 100],
    ['an empty batch', [], 1],
  ])('%s spends as many calls as it carries, at least one', (_name, body, calls) => {
    expect(callsIn(body)).toBe(calls);
  });
});

describe('JSON-RPC 2.0 batches', () => {
  it('answers an empty batch with one -32600 error object, id null', () => {
    expect(emptyBatchAnswer([])).toMatchObject({ jsonrpc: '2.0', error: { code: INVALID_REQUEST }, id: null });
    expect(emptyBatchAnswer([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toBeNull();
    expect(emptyBatchAnswer({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeNull();
  });

  it("answers a batch with an array, even of one response; a single message keeps its object; 202's nothing stays", () => {
    const one = '{"jsonrpc":"2.0","id":1,"result":{}}';
    expect(batchAnswerText([{}, {}], one)).toBe(`[${one}]`);
    expect(batchAnswerText([{}, {}], `[${one},${one}]`)).toBe(`[${one},${one}]`);
    expect(batchAnswerText({}, one)).toBe(one);
    expect(batchAnswerText([{}], '')).toBe('');
  });
});

describe('tools/call naming no tool of the door', () => {
  const call = (params?: unknown) => ({ jsonrpc: '2.0', id: 3, method: 'tools/call', params });

  it.each([
    ['no params', call()],
    ['params without a name', call({ arguments: {} })],
    ['a name that is not a string', call({ name: 7 })],
    ['params as an array', call(['send_email'])],
  ])('is invalid params with %s, saying what to send', (_name, message) => {
    const error = toolCallError(message, TOOLS)!;
    expect(error.code).toBe(INVALID_PARAMS);
    expect(error.message).toMatch(/"name".*track_event, send_email/);
  });

  it('is invalid params naming an unknown tool and the tools there are', () => {
    const error = toolCallError(call({ name: 'drop_tables' }), TOOLS)!;
    expect(error).toEqual({ code: INVALID_PARAMS, message: expect.stringMatching(/"drop_tables".*track_event/) });
  });

  it('leaves a known tool, another method and a notification to the server', () => {
    expect(toolCallError(call({ name: 'send_email', arguments: {} }), TOOLS)).toBeNull();
    expect(toolCallError({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, TOOLS)).toBeNull();
    expect(toolCallError({ jsonrpc: '2.0', method: 'tools/call' }, TOOLS)).toBeNull();
  });
});
