// Every page of the console with something on it: a workspace given a person with a timeline, a
// segment, a webhook address, a door, an automation, a list, a template and a broadcast, and the path
// of each page under /console (its list and its own page) for the frame's tests to visit.
import type { CreatedWorkspace } from '@app/workspaces';
import type { TestApp } from '../harness';

async function made(
  t: TestApp,
  ws: CreatedWorkspace,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<any> {
  const answer = await t.gql(query, variables, ws.secretKey);
  if (answer.errors) throw new Error(`${query}: ${JSON.stringify(answer.errors)}`);
  return answer.data;
}

async function seedPeople(t: TestApp, ws: CreatedWorkspace): Promise<string> {
  const events = [
    { type: 'pageview', email: 'ada@example.com', source: { path: '/pricing', referrer: 'news.example.com' } },
    { type: 'signup', email: 'ada@example.com' },
    { type: 'purchase', email: 'ada@example.com', value: 49, properties: { plan: 'yearly' } },
    { type: 'support', from: 'ada@example.com', message: 'How do I export my data?', topic: 'export' },
    { type: 'pageview', anon_id: 'anon-visitor-1', source: { path: '/', referrer: 'search.example.com' } },
    { type: 'signup', email: 'grace.with.a.rather.long.address@subdomain.example.com' },
  ];
  const answer = await t.request('POST', '/api/v1/events', { key: ws.secretKey, body: { events } });
  if (!answer.body.ok) throw new Error(JSON.stringify(answer.body));
  const found = await made(t, ws, '{ people(first: 10, filter: { search: "ada@" }) { edges { node { id } } } }');
  return found.people.edges[0].node.id;
}

/** The console's pages, by name; everyPage answers the path of each. */
export const PAGE_NAMES = [
  'Home',
  'People',
  'a person',
  'Segments',
  'a segment',
  'Live events',
  'Charts',
  'a funnel',
  'retention',
  'Webhooks',
  'a webhook address',
  'Doors',
  'Automations',
  'an automation',
  'Lists',
  'Templates',
  'a template',
  'Broadcasts',
  'a broadcast',
  'Settings',
] as const;

export type PageName = (typeof PAGE_NAMES)[number];

/** The path under /console of each page, for one workspace given one of everything. */
export async function everyPage(t: TestApp, ws: CreatedWorkspace): Promise<Record<PageName, string>> {
  const person = await seedPeople(t, ws);
  const data = await made(
    t,
    ws,
    `mutation {
      segment: createSegment(input: { name: "Buyers", definition: { stage: "purchaser" } }) { id }
      hook: createWebhookEndpoint(input: { url: "https://127.0.0.1:9/lifeline", triggers: ["event"] }) {
        endpoint { id }
      }
      door: connectDoor(input: { kind: "payment", secret: "whsec_every_page" }) { door { id } }
      list: createList(input: { address: "news", name: "News" }) { id }
      template: createTemplate(input: { name: "welcome", subject: "Welcome", body: "# Hello" }) { id }
      automation: createAutomation(input: { name: "Welcome", trigger: { kind: "webhook" } }) { automation { id } }
    }`,
  );
  const broadcast = await made(
    t,
    ws,
    'mutation { createBroadcast(input: { name: "May news", list: "news", template: "welcome" }) { id } }',
  );
  return {
    Home: '/home',
    People: '/people',
    'a person': `/people/${encodeURIComponent(person)}`,
    Segments: '/segments',
    'a segment': `/segments/${encodeURIComponent(data.segment.id)}`,
    'Live events': '/live',
    Charts: '/charts',
    'a funnel': '/charts/funnel',
    retention: '/charts/retention',
    Webhooks: '/webhooks',
    'a webhook address': `/webhooks/${data.hook.endpoint.id}`,
    Doors: '/doors',
    Automations: '/automations',
    'an automation': `/automations/${data.automation.automation.id}`,
    Lists: '/lists',
    Templates: '/templates',
    'a template': `/templates/${data.template.id}`,
    Broadcasts: '/broadcasts',
    'a broadcast': `/broadcasts/${encodeURIComponent(broadcast.createBroadcast.id)}`,
    Settings: '/settings',
  };
}
