// The signed link of every email to a workspace's people (docs/rest.md#the-preferences-link): List-Unsubscribe and
// List-Unsubscribe-Post on one-to-one and automation email, RFC 8058's one-click by a plain POST with no cookie, a
// tampered link refused, the opt-out that refuses later sends until the person subscribes again or an owner lifts
// it, and the preference page in Chromium. Complaints and bounces through the email door: test/email-bounces.e2e-spec.ts.
import type { Browser } from 'playwright-core';
import { eventually, useApp, useWorkspace } from './harness';
import { preferencesUrl } from '@app/messaging';
import { launchBrowser } from './support/browser';
import { seriousViolations } from './support/console';
import { Mail, mailPart, useSmtp } from './support/smtp';

const smtp = useSmtp();
const t = useApp({ worker: true, env: () => ({ SMTP_URL: smtp.url, EMAIL_FROM: 'Lifeline <hello@lifeline.test>' }) });
const ws = useWorkspace(t, {}, 'all');
let browser: Browser;
beforeAll(async () => (browser = await launchBrowser()));
afterAll(() => browser?.close());

/** A header of a received mail, its folded lines joined. */
function header(mail: Mail, name: string): string | undefined {
  const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1];
}
const linkOf = (mail: Mail) => /^<([^>]+)>$/.exec(header(mail, 'List-Unsubscribe') ?? '')?.[1];

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const send = (to: string, body = 'A note for you.') =>
  t.request('POST', '/api/v1/messages', { key: ws.secretKey, body: { to, subject: 'Hello there', body } });
const mailTo = (to: string, subject = 'Hello there') =>
  eventually(async () => smtp.received.filter((m) => m.to.includes(to) && m.raw.includes(subject)).at(-1));

async function list(address: string, name: string): Promise<string> {
  const made = await t.gql(
    'mutation($i: CreateListInput!) { createList(input: $i) { id } }',
    { i: { address, name } },
    ws.secretKey,
  );
  return made.data.createList.id;
}
async function subscribe(email: string, address: string, text = `Send me ${address}, please.`) {
  expect((await post({ type: 'subscribe', email, list: address, consent: { text } })).body).toMatchObject({ ok: true });
}
const statusOf = async (email: string) =>
  Object.fromEntries(
    (
      await t.db.query(
        `SELECT l.address, s.status FROM subscriptions s JOIN lists l ON l.workspace_id = s.workspace_id AND l.id = s.list_id
          JOIN people p ON p.workspace_id = s.workspace_id AND p.id = s.person_id
         WHERE s.workspace_id = $1 AND p.email = $2`,
        [ws.workspace.id, email],
      )
    ).map((r: { address: string; status: string }) => [r.address, r.status]),
  );
beforeAll(async () => {
  for (const [address, name] of [
    ['news', 'News'],
    ['tips', 'Tips'],
    ['events', 'Events'],
  ])
    await list(address, name);
});
const oneClick = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: 'List-Unsubscribe=One-Click',
  });

describe('every email to a workspace’s people carries the signed one-click link', () => {
  it('a one-to-one email: List-Unsubscribe names {BASE_URL}/preferences/…, List-Unsubscribe-Post says One-Click, and {{ preferences_url }} is the same link', async () => {
    await post({ type: 'signup', email: 'ada@example.com' });
    expect((await send('ada@example.com', 'Your choices: {{ preferences_url }}')).body).toMatchObject({ ok: true });
    const mail = await mailTo('ada@example.com');
    const link = linkOf(mail)!;
    expect(link).toMatch(new RegExp(`^${t.url}/preferences/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mailPart(mail, 'text/plain')).toContain(`Your choices: ${link}`);
  });

  it("an automation's send_email carries them too", async () => {
    await t.gql(
      'mutation($i: CreateTemplateInput!) { createTemplate(input: $i) { id } }',
      { i: { name: 'welcome', subject: 'Welcome aboard', body: 'Glad you came.' } },
      ws.secretKey,
    );
    const made = await t.gql(
      `mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { automation { id } address } }`,
      {
        input: { name: 'Welcome', trigger: { kind: 'webhook' }, steps: [{ kind: 'send_email', template: 'welcome' }] },
      },
      ws.secretKey,
    );
    const { automation, address } = made.data.createAutomation;
    await t.gql(
      'mutation($id: ID!) { setAutomationStatus(id: $id, status: "running") { id } }',
      { id: automation.id },
      ws.secretKey,
    );
    await post({ type: 'signup', email: 'auto@example.com' });
    const started = await t.request('POST', new URL(address).pathname, {
      raw: JSON.stringify({ email: 'auto@example.com' }),
    });
    expect(started.body.status).toBe('started');
    const mail = await mailTo('auto@example.com', 'Welcome aboard');
    expect(linkOf(mail)).toMatch(new RegExp(`^${t.url}/preferences/`));
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it("a member's sign-in link is not mail to the workspace's people: it carries neither header", async () => {
    const asked = await fetch(`${t.url}/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=owner%40example.com',
    });
    expect(asked.status).toBe(200);
    const mail = await mailTo('owner@example.com', 'sign-in link');
    expect(header(mail, 'List-Unsubscribe')).toBeUndefined();
    expect(header(mail, 'List-Unsubscribe-Post')).toBeUndefined();
  });
});

describe('one-click (RFC 8058): a plain POST, no page, no cookie, no Origin', () => {
  it('takes the person off every list and opts them out; a later send is refused opted_out; subscribing again lifts it', async () => {
    await subscribe('bo@example.com', 'news');
    await subscribe('bo@example.com', 'tips');
    await send('bo@example.com');
    const link = linkOf(await mailTo('bo@example.com'))!;

    const answer = await oneClick(link);
    expect(answer.status).toBe(200);
    expect((await oneClick(link)).status).toBe(200); // a provider's retry adds nothing
    const kept = await t.db.query(`SELECT kind, via FROM email_standings WHERE workspace_id = $1`, [ws.workspace.id]);
    expect(kept).toEqual([{ kind: 'opted_out', via: 'one_click' }]);
    expect(await statusOf('bo@example.com')).toEqual({ news: 'unsubscribed', tips: 'unsubscribed' });
    const refused = await send('bo@example.com');
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ ok: false, error: 'opted_out' });
    expect(refused.body.message).toMatch(/subscribe to a list again or an owner or admin lifts/);

    await subscribe('bo@example.com', 'tips', 'Tips again, please.');
    expect((await send('bo@example.com')).body).toMatchObject({ ok: true });
  });

  it("a list's link (mail sent to a list) takes the person off that list only, and opts them out", async () => {
    await subscribe('fay@example.com', 'news');
    await subscribe('fay@example.com', 'tips');
    const [{ id: personId }] = await t.db.query(`SELECT id FROM people WHERE workspace_id = $1 AND email = $2`, [
      ws.workspace.id,
      'fay@example.com',
    ]);
    const [{ id: listId }] = await t.db.query(`SELECT id FROM lists WHERE workspace_id = $1 AND address = 'news'`, [
      ws.workspace.id,
    ]);
    const link = preferencesUrl(t.url, { workspaceId: ws.workspace.id, personId, listId }, t.config.appSecret);
    expect((await oneClick(link)).status).toBe(200);
    expect(await statusOf('fay@example.com')).toEqual({ news: 'unsubscribed', tips: 'subscribed' });
    expect((await send('fay@example.com')).body).toMatchObject({ error: 'opted_out' });
  });

  it('a tampered link is refused 404 and changes nothing, by POST or by GET', async () => {
    await subscribe('cy@example.com', 'news');
    await send('cy@example.com');
    const link = linkOf(await mailTo('cy@example.com'))!;
    const [body, mac] = link.split('/preferences/')[1].split('.');
    const other = Buffer.from(`${ws.workspace.id}.per_someone_else`).toString('base64url');
    for (const forged of [`${other}.${mac}`, `${body}.${mac.slice(0, -2)}xx`, body]) {
      const url = `${t.url}/preferences/${forged}`;
      expect((await oneClick(url)).status).toBe(404);
      expect((await fetch(url)).status).toBe(404);
    }
    expect(await statusOf('cy@example.com')).toEqual({ news: 'subscribed' });
    expect((await send('cy@example.com')).body).toMatchObject({ ok: true });
  });

  it('an owner or admin lifts the opt-out over GraphQL; Person.emailStanding shows it until then', async () => {
    await subscribe('di@example.com', 'news');
    await send('di@example.com');
    expect((await oneClick(linkOf(await mailTo('di@example.com'))!)).status).toBe(200);
    const STANDING =
      'query($e: String) { person(email: $e) { emailStanding { optOut { at via } undeliverable { address } } } }';
    const shown = await t.gql(STANDING, { e: 'di@example.com' }, ws.secretKey);
    expect(shown.data.person.emailStanding).toMatchObject({ optOut: { via: 'one_click' }, undeliverable: null });

    const lifted = await t.gql(
      'mutation($p: String!) { liftEmailOptOut(person: $p) { optOut { at } } }',
      { p: 'di@example.com' },
      ws.secretKey,
    );
    expect(lifted.data.liftEmailOptOut).toEqual({ optOut: null });
    expect((await send('di@example.com')).body).toMatchObject({ ok: true });
  });
});

describe('the preference page, in Chromium', () => {
  it("shows the workspace's name and each list with the words agreed to; unticking one list and Save keeps the others", async () => {
    await subscribe('eve@example.com', 'news', 'Yes to the monthly news.');
    await subscribe('eve@example.com', 'tips', 'Yes to the weekly tips.');
    await subscribe('eve@example.com', 'events', 'Yes to event invitations.');
    await send('eve@example.com');
    const link = linkOf(await mailTo('eve@example.com'))!;

    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto(link);
    const [{ name }] = await t.db.query(`SELECT name FROM workspaces WHERE id = $1`, [ws.workspace.id]);
    await page.getByRole('heading', { level: 1, name: `Email from ${name}` }).waitFor();
    await page.getByText('On ', { exact: false }).filter({ hasText: 'Yes to the weekly tips.' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'News' }).isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('checkbox', { name: 'Tips' }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Tips' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'News' }).isChecked()).toBe(true);
    expect(scripts).toEqual([]);
    await context.close();

    expect(await statusOf('eve@example.com')).toEqual({
      news: 'subscribed',
      tips: 'unsubscribed',
      events: 'subscribed',
    });
    const via = await t.db.query(
      `SELECT s.withdrawn_via FROM subscriptions s JOIN lists l ON l.workspace_id = s.workspace_id AND l.id = s.list_id
        WHERE s.workspace_id = $1 AND l.address = 'tips' AND s.status = 'unsubscribed'`,
      [ws.workspace.id],
    );
    expect(via.map((r: { withdrawn_via: string }) => r.withdrawn_via)).toContain('preferences');
    // Leaving lists is not opting out of email.
    expect((await send('eve@example.com')).body).toMatchObject({ ok: true });
  });

  it("the page's own one-click button unsubscribes from everything and says so on the page", async () => {
    await subscribe('gus@example.com', 'news');
    await subscribe('gus@example.com', 'tips');
    await send('gus@example.com');
    const link = linkOf(await mailTo('gus@example.com'))!;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('button', { name: /^Unsubscribe from all email from / }).click();
    await page.getByRole('status').filter({ hasText: 'You are unsubscribed' }).waitFor();
    await page.getByText(/You are unsubscribed from all email from .* since/).waitFor();
    await context.close();
    expect(await statusOf('gus@example.com')).toEqual({ news: 'unsubscribed', tips: 'unsubscribed' });
    expect((await send('gus@example.com')).body).toMatchObject({ error: 'opted_out' });
  });
});
