// Roles per mutation (docs/graphql.md#roles): a member is refused with forbidden, owners and admins
// are allowed, the operator token only creates workspaces.
import { CreatedWorkspace } from '@app/workspaces';
import { ADMIN_TOKEN, memberKey, useApp } from './harness';

const t = useApp();

interface Keys {
  ws: CreatedWorkspace;
  owner: string;
  admin: string;
  member: string;
}

async function workspaceWithRoles(): Promise<Keys> {
  const ws = await t.workspace();
  const admin = (await memberKey(t, ws, 'admin@example.com', 'admin')).secretKey;
  return { ws, owner: ws.secretKey, admin, member: (await memberKey(t, ws, 'member@example.com')).secretKey };
}

let n = 0;
const asOwner = async (k: Keys, query: string, variables: Record<string, unknown> = {}) => {
  const answer = await t.gql(query, variables, k.owner);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
};

/** Each mutation with what it needs made first (by the owner), fresh for every attempt. */
const MUTATIONS: Array<[string, (k: Keys) => Promise<{ query: string; variables?: Record<string, unknown> }>]> = [
  [
    'updateWorkspaceSettings',
    async () => ({ query: 'mutation { updateWorkspaceSettings(input: {trialStage: true}) { trialStage } }' }),
  ],
  ['createList', async () => ({ query: `mutation { createList(input: {address: "l${++n}", name: "L"}) { id } }` })],
  [
    'renameList',
    async (k) => {
      const id = (await asOwner(k, `mutation { createList(input: {address: "r${++n}", name: "R"}) { id } }`)).createList
        .id;
      return { query: `mutation { renameList(id: "${id}", name: "New name") { name } }` };
    },
  ],
  [
    'addNote',
    async (k) => {
      await t.request('POST', '/api/v1/events', {
        key: k.owner,
        body: { type: 'pageview', email: 'noted@example.com' },
      });
      return { query: 'mutation { addNote(person: "noted@example.com", text: "Asked for a call.") { id } }' };
    },
  ],
  [
    'createTemplate',
    async () => ({
      query: `mutation { createTemplate(input: {name: "t${++n}", subject: "Hello there", body: "Hi {{ person.name }}"}) { id } }`,
    }),
  ],
  [
    'updateTemplate',
    async (k) => {
      const name = `u${++n}`;
      await asOwner(
        k,
        `mutation { createTemplate(input: {name: "${name}", subject: "Hello there", body: "Hi there"}) { id } }`,
      );
      return { query: `mutation { updateTemplate(id: "${name}", input: {subject: "Hello again"}) { subject } }` };
    },
  ],
  [
    'createWebhookEndpoint',
    async () => ({
      query:
        'mutation { createWebhookEndpoint(input: {url: "http://127.0.0.1:9/hook", triggers: ["event"]}) { secret } }',
    }),
  ],
  ...(['updateWebhookEndpoint', 'deleteWebhookEndpoint', 'sendTestDelivery', 'retryDelivery'] as const).map(
    (name) =>
      [
        name,
        async (k: Keys) => {
          const made = await asOwner(
            k,
            'mutation { createWebhookEndpoint(input: {url: "http://127.0.0.1:9/hook", triggers: ["event"]}) { endpoint { id } } }',
          );
          const id = made.createWebhookEndpoint.endpoint.id;
          if (name === 'updateWebhookEndpoint')
            return {
              query: `mutation { updateWebhookEndpoint(id: "${id}", input: {triggers: ["stage_entered"]}) { id } }`,
            };
          if (name === 'deleteWebhookEndpoint') return { query: `mutation { deleteWebhookEndpoint(id: "${id}") }` };
          if (name === 'sendTestDelivery')
            return { query: `mutation { sendTestDelivery(endpointId: "${id}") { id } }` };
          const delivery = (await asOwner(k, `mutation { sendTestDelivery(endpointId: "${id}") { id } }`))
            .sendTestDelivery.id;
          return { query: `mutation { retryDelivery(id: "${delivery}") { id } }` };
        },
      ] as [string, (k: Keys) => Promise<{ query: string }>],
  ),
  ['createKey', async () => ({ query: `mutation { createKey(member: "k${++n}@example.com") { secretKey } }` })],
  [
    'revokeKey',
    async (k) => {
      const id = (await asOwner(k, `mutation { createKey(member: "v${++n}@example.com") { keyId } }`)).createKey.keyId;
      return { query: `mutation { revokeKey(id: "${id}") }` };
    },
  ],
  ['addMember', async () => ({ query: `mutation { addMember(email: "a${++n}@example.com", role: "member") { id } }` })],
  [
    'changeRole',
    async (k) => {
      const email = `c${++n}@example.com`;
      await asOwner(k, `mutation { addMember(email: "${email}", role: "member") { id } }`);
      return { query: `mutation { changeRole(member: "${email}", role: "admin") { role } }` };
    },
  ],
  [
    'removeMember',
    async (k) => {
      const email = `d${++n}@example.com`;
      await asOwner(k, `mutation { addMember(email: "${email}", role: "member") { id } }`);
      return { query: `mutation { removeMember(member: "${email}") }` };
    },
  ],
];

describe.each(MUTATIONS)('%s', (_name, prepare) => {
  let k: Keys;
  beforeAll(async () => {
    k = await workspaceWithRoles();
  });

  it('a member is refused with forbidden (403) and nothing changes', async () => {
    const { query, variables } = await prepare(k);
    const answer = await t.gql(query, variables, k.member);
    expect(answer.errors?.[0].extensions).toMatchObject({ code: 'forbidden', status: 403 });
    expect(answer.data).toBeNull();
  });

  it.each(['owner', 'admin'] as const)('the %s is allowed', async (role) => {
    const { query, variables } = await prepare(k);
    const answer = await t.gql(query, variables, k[role]);
    expect(answer.errors).toBeUndefined();
  });

  it('the operator token alone is refused (it names no workspace)', async () => {
    const { query, variables } = await prepare(k);
    expect((await t.gql(query, variables, ADMIN_TOKEN)).errors?.[0].extensions.code).toBe('forbidden');
  });
});

describe('createWorkspace', () => {
  const mutation = 'mutation($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { slug } } }';

  it('the operator creates workspaces; no member, admin or owner can', async () => {
    const k = await workspaceWithRoles();
    for (const key of [k.owner, k.admin, k.member]) {
      const answer = await t.gql(mutation, { input: { slug: `nope-${++n}`, owner: 'o@example.com' } }, key);
      expect(answer.errors?.[0].extensions).toMatchObject({ code: 'forbidden', status: 403 });
    }
    expect(
      (await t.gql(mutation, { input: { slug: `yes-${++n}`, owner: 'o@example.com' } })).data.createWorkspace.workspace
        .slug,
    ).toBe(`yes-${n}`);
  });
});

describe('members read', () => {
  it.each([
    '{ workspace { slug } }',
    '{ members { email } }',
    '{ people { edges { node { id } } } }',
    '{ lists { address subscriberCount } }',
    '{ templates { name } }',
    '{ eventNames { name } }',
    '{ heartbeat { count } }',
    '{ messages { messages { id } } }',
    '{ chart(input: {event: "signup", measure: "count", interval: "day", from: "2026-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z"}) { series { key } } }',
  ])('%s', async (query) => {
    const k = await workspaceWithRoles();
    expect((await t.gql(query, {}, k.member)).errors).toBeUndefined();
  });
});
