// The console's segment triggers in Chromium against the real api (docs/graphql.md#automations,
// docs/webhooks.md#triggers-and-bodies): an automation written on the page with "A person enters a segment"
// names the segment chosen from the workspace's, and its pages say so by the segment's name; a webhook address
// created on the page hears segment_left when its box is ticked.
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { openPage, seriousViolations, useConsole } from './support/console';
import { receiver } from './support/receiver';

const console_ = useConsole();
const { t } = console_;

let ws: CreatedWorkspace;
let owner: Page;

beforeAll(async () => {
  ws = await t.workspace();
  owner = await console_.signIn(ws.secretKey);
});

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const answer = await t.gql(query, variables, ws.secretKey);
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}

describe('segment triggers on the console', () => {
  it('an automation started by entering a chosen segment is saved with its id and shown with its name', async () => {
    const { createSegment: buyers } = await gql(
      'mutation($input: CreateSegmentInput!) { createSegment(input: $input) { id } }',
      { input: { name: 'Buyers', definition: { stage: ['purchaser', 'repeat'] } } },
    );
    await openPage(owner, t, '/automations');
    await owner.getByText('No automations yet').waitFor();
    await owner.getByLabel('Name').fill('Thank a buyer');
    await owner.getByLabel('Starts when').selectOption('segment_entered');
    await owner.getByLabel('Segment').selectOption({ label: 'Buyers' });
    expect(await seriousViolations(owner)).toEqual([]);
    await owner.getByRole('button', { name: 'Create automation' }).click();

    await owner.getByRole('heading', { level: 1, name: 'Thank a buyer' }).waitFor();
    await expect(owner.locator('dl.facts').textContent()).resolves.toContain('When a person enters segment Buyers');
    const { automations } = await gql('{ automations { name trigger { kind segment } } }');
    expect(automations).toEqual([{ name: 'Thank a buyer', trigger: { kind: 'segment_entered', segment: buyers.id } }]);

    await owner.getByRole('link', { name: 'Automations' }).click();
    const row = owner.getByRole('row').filter({ has: owner.getByRole('link', { name: 'Thank a buyer' }) });
    await expect(row.textContent()).resolves.toContain('When a person enters segment Buyers');
  });

  it('a webhook address created with segment_left ticked hears it', async () => {
    const hook = await receiver();
    await openPage(owner, t, '/webhooks');
    const form = owner.getByRole('form', { name: 'Create an address' });
    await form.getByLabel('URL').fill(`${hook.url}/segments`);
    const triggers = form.getByRole('group', { name: 'Triggers' });
    await triggers.getByRole('checkbox', { name: /^event/ }).uncheck();
    await triggers.getByRole('checkbox', { name: /^segment_left/ }).check();
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await form.getByRole('status').filter({ hasText: 'Signing secret' }).waitFor();
    const { webhookEndpoints } = await gql('{ webhookEndpoints { url triggers } }');
    expect(webhookEndpoints).toEqual([{ url: `${hook.url}/segments`, triggers: ['segment_left'] }]);
    await hook.close();
  });
});
