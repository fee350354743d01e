// The person's page in Chromium shows whether email may go to them (docs/graphql.md#email-standing): an opt-out made
// by the one-click link of a real email, with when and how, and the owner's button that lifts it.
import type { Page } from 'playwright-core';
import type { CreatedWorkspace } from '@app/workspaces';
import { eventually } from './harness';
import { openPage, seriousViolations, useConsole } from './support/console';
import { useSmtp } from './support/smtp';

const smtp = useSmtp();
const c = useConsole({ worker: true, env: () => ({ SMTP_URL: smtp.url }) });
let ws: CreatedWorkspace;
let page: Page;

const send = (to: string) =>
  c.t.request('POST', '/api/v1/messages', { key: ws.secretKey, body: { to, subject: 'Hello there', body: 'A note.' } });

beforeAll(async () => {
  ws = await c.t.workspace();
  page = await c.signIn(ws.secretKey);
  page.setDefaultTimeout(10_000);
});

it('an opt-out by the one-click link shows on the person with when and how; Lift the opt-out lets email go again', async () => {
  await c.t.request('POST', '/api/v1/events', {
    key: ws.secretKey,
    body: { type: 'signup', email: 'ola@example.com' },
  });
  expect((await send('ola@example.com')).body).toMatchObject({ ok: true });
  const mail = await eventually(async () => smtp.received.find((m) => m.to.includes('ola@example.com')));
  const link = /^List-Unsubscribe:\s*<([^>]+)>/im.exec(mail.raw.replace(/\r\n[ \t]+/g, ' '))![1];
  const clicked = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(clicked.status).toBe(200);
  expect((await send('ola@example.com')).body.error).toBe('opted_out');

  const [{ id }] = await c.t.db.query(`SELECT id FROM people WHERE workspace_id = $1 AND email = $2`, [
    ws.workspace.id,
    'ola@example.com',
  ]);
  await openPage(page, c.t, `/people/${id}`);
  const section = page.getByRole('region', { name: 'Email' });
  await section.getByText(/Opted out of email on .* with the unsubscribe link of an email/).waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await section.getByRole('button', { name: 'Lift the opt-out' }).click();
  await section.getByText('Email may be sent to this person.').waitFor();
  expect((await send('ola@example.com')).body).toMatchObject({ ok: true });
});
