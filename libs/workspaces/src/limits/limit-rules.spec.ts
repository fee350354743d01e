import { Refusal } from '@app/platform/plain';
import { figureRefusal, limitNamed } from './limit-rules';

describe('limits the operator sets', () => {
  it.each([
    'server_posts',
    'tool_calls',
    'automation_starts',
    'website_subscribe',
    'website_identify',
    'website_event',
    'website_support',
  ])('names %s', (name) => expect(limitNamed(name)).toBe(name));

  it('refuses a name outside the table, naming the ones there are', () => {
    const refused = limitNamed('graphql') as Refusal;
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused.message).toMatch(/No limit is named "graphql": name one of server_posts, tool_calls/);
  });

  it.each([1, 600, 10_000_000])('takes %d calls per ten minutes', (n) => expect(figureRefusal(n)).toBeNull());

  it.each([0, -5, 1.5, 10_000_001])('refuses %d with a sentence', (n) =>
    expect(figureRefusal(n)?.message).toMatch(/whole number from 1 to 10,000,000/),
  );
});
