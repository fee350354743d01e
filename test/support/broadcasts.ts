// What the broadcast tests share: the GraphQL calls, a received mail's headers, and waiting for a broadcast's end.
import type { TestApp } from '../harness';
import { eventually } from '../harness';
import type { Mail } from './smtp';

export const BROADCAST = `id name state list segment template subject audience sent failed skipped pending cancelled
  opened clicked skippedBy { reason count } startedAt finishedAt`;

type Answer = { data?: any; errors?: Array<{ message: string; extensions: Record<string, unknown> }> };

export function broadcastCalls(t: TestApp, key: () => string) {
  const gql = (query: string, variables: Record<string, unknown> = {}): Promise<Answer> =>
    t.gql(query, variables, key());
  const move = (name: string, id: string) => gql(`mutation($id: ID!) { ${name}(id: $id) { ${BROADCAST} } }`, { id });
  return {
    gql,
    create: (input: Record<string, unknown>) =>
      gql(`mutation($input: CreateBroadcastInput!) { createBroadcast(input: $input) { ${BROADCAST} } }`, { input }),
    send: (id: string) => move('sendBroadcast', id),
    pause: (id: string) => move('pauseBroadcast', id),
    resume: (id: string) => move('resumeBroadcast', id),
    cancel: (id: string) => move('cancelBroadcast', id),
    get: async (id: string) =>
      (await gql(`query($id: ID!) { broadcast(id: $id) { ${BROADCAST} } }`, { id })).data.broadcast,
    setPostalAddress: (postalAddress: string) =>
      gql(`mutation($a: String) { updateWorkspaceSettings(input: { postalAddress: $a }) { postalAddress } }`, {
        a: postalAddress,
      }),
    /** Waits until the broadcast is in `state` (sent, by default), and answers it. */
    until: (id: string, state = 'sent', timeoutMs = 15_000) =>
      eventually(
        async () => {
          const b = (await gql(`query($id: ID!) { broadcast(id: $id) { ${BROADCAST} } }`, { id })).data.broadcast;
          return b.state === state ? b : null;
        },
        timeoutMs,
        100,
      ),
  };
}

/** A received mail's header block, folded lines unfolded. */
export function headerBlock(mail: Mail): string {
  const end = mail.raw.indexOf('\r\n\r\n');
  return mail.raw.slice(0, end < 0 ? undefined : end).replace(/\r\n[ \t]+/g, ' ');
}

/** One header's value (the first), or undefined. */
export function header(mail: Mail, name: string): string | undefined {
  const match = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(headerBlock(mail));
  return match?.[1].trim();
}

/** The refusal's code, message and field of a GraphQL answer. */
export function refusalOf(answer: Answer) {
  const error = answer.errors?.[0];
  return { code: error?.extensions.code, message: error?.message, field: error?.extensions.field };
}
