// Double opt-in (docs/rest.md#events, docs/security.md#the-confirmation-link): a subscribe to such a
// list answers pending and mails a confirmation link through a real SMTP server; a GET of the link confirms nothing,
// the Confirm button's POST in Chromium does, and only then does subscribed fire and the person become engaged.
import type { Browser } from 'playwright-core';
import { OutboxWriter } from '@app/outbox';
import { ConfirmationService, SegmentMembership, TimelineRepository } from '@app/events';
import { ConfirmationsRepository, PeopleRepository } from '@app/people';
import { DAY_MS } from '@app/platform';
import { ManualClock } from '@app/platform/manual-clock';
import { eventually, useApp, useWorkspace } from './harness';
import { launchBrowser } from './support/browser';
import { receiver } from './support/receiver';
import { type Mail, mailPart, useSmtp } from './support/smtp';

const SITE = 'https://shop.example.com';
const smtp = useSmtp();
const t = useApp({
  worker: true,
  env: () => ({
    SMTP_URL: smtp.url,
    EMAIL_FROM: 'Lifeline <hello@lifeline.test>',
    UNSAFE_ALLOW_PRIVATE_TARGETS: 'true',
  }),
});
const ws = useWorkspace(t, { origins: [SITE] }, 'all');
let browser: Browser;
let hooks: Awaited<ReturnType<typeof receiver>>;

const post = (body: unknown) => t.request('POST', '/api/v1/events', { key: ws.secretKey, body });
const gql = (query: string, variables: Record<string, unknown> = {}) => t.gql(query, variables, ws.secretKey);
const consent = 'Yes, send me the weekly letter.';

async function subscriptionOf(email: string, address: string) {
  const answer = await gql(
    `query($q: String) { people(filter: {search: $q}) { edges { node { engaged subscriptions {
       list { address doubleOptIn } status confirmedAt confirmedIp consentText } } } } }`,
    { q: email },
  );
  const node = answer.data.people.edges[0].node;
  return { engaged: node.engaged as boolean, ...node.subscriptions.find((s: any) => s.list.address === address) };
}

const mailTo = (email: string, after = 0) =>
  eventually(async () => smtp.received.slice(after).find((m) => m.to.includes(email)) ?? null);
const linkOf = (mail: Mail) => /https?:\/\/\S+\/confirm\/[A-Za-z0-9_.-]+/.exec(mailPart(mail, 'text/plain') ?? '')![0];
const subscribedHooksFor = (email: string) =>
  hooks.received.filter((r) => r.body?.type === 'subscribed' && r.body?.record?.email === email);

beforeAll(async () => {
  browser = await launchBrowser();
  hooks = await receiver();
  const made = await gql(
    `mutation { letter: createList(input: {address: "letter", name: "Weekly letter", doubleOptIn: true}) { doubleOptIn }
       plain: createList(input: {address: "plain", name: "Plain news"}) { doubleOptIn } }`,
  );
  expect(made.data).toEqual({ letter: { doubleOptIn: true }, plain: { doubleOptIn: false } });
  const endpoint = await gql(
    'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
    { input: { url: `${hooks.url}/hooks`, triggers: ['subscribed'] } },
  );
  expect(endpoint.errors).toBeUndefined();
});
afterAll(async () => {
  await browser?.close();
  await hooks?.close();
});

describe('a double opt-in list', () => {
  it('answers pending and mails a link; a GET of it confirms nothing; the Confirm POST in a browser confirms, fires subscribed and engages', async () => {
    const answer = await post({ type: 'subscribe', email: 'ada@example.com', list: 'letter', consent });
    expect(answer.body).toMatchObject({ ok: true, status: 'pending' });
    expect(await subscriptionOf('ada@example.com', 'letter')).toMatchObject({
      engaged: false,
      status: 'pending',
      confirmedAt: null,
      consentText: consent,
    });
    const mail = await mailTo('ada@example.com');
    expect(mail.raw).not.toMatch(/^List-Unsubscribe/im);
    expect(mail.raw).toMatch(/^Subject: Confirm your subscription to Weekly letter/m);
    const link = linkOf(mail);

    // A mail scanner opens the link: the page, and nothing else.
    const opened = await fetch(link);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('<button type="submit" name="confirm" value="yes">Confirm</button>');
    expect(await subscriptionOf('ada@example.com', 'letter')).toMatchObject({ engaged: false, status: 'pending' });
    // A later subscribed (to a plain list) arrives, so any from the GET would have arrived before it.
    await post({ type: 'subscribe', email: 'bob@example.com', list: 'plain', consent });
    await eventually(async () => subscribedHooksFor('bob@example.com').length === 1);
    expect(subscribedHooksFor('ada@example.com')).toEqual([]);

    const page = await (await browser.newContext()).newPage();
    await page.goto(link);
    expect(await page.locator('script').count()).toBe(0);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByText('Confirmed: you are subscribed.').waitFor();
    const confirmed = await subscriptionOf('ada@example.com', 'letter');
    expect(confirmed).toMatchObject({ engaged: true, status: 'subscribed' });
    expect(Date.parse(confirmed.confirmedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(confirmed.confirmedIp).toBeTruthy();
    await eventually(async () => subscribedHooksFor('ada@example.com').length === 1);
    expect(subscribedHooksFor('ada@example.com')[0].body.data.list).toEqual({
      address: 'letter',
      name: 'Weekly letter',
    });
    // Posting the button again confirms nothing twice.
    expect((await fetch(link, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    expect((await post({ type: 'subscribe', email: 'ada@example.com', list: 'letter', consent })).body.status).toBe(
      'already_subscribed',
    );
  });

  it('a tampered link is refused 404 and confirms nothing', async () => {
    const after = smtp.received.length;
    await post({ type: 'subscribe', email: 'eve@example.com', list: 'letter', consent });
    const link = linkOf(await mailTo('eve@example.com', after));
    const tampered = `${link.slice(0, -2)}${link.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await fetch(tampered, { method: 'POST' })).status).toBe(404);
    expect((await fetch(tampered)).status).toBe(404);
    expect((await subscriptionOf('eve@example.com', 'letter')).status).toBe('pending');
  });

  it('the public subscribe route and a batch answer pending and mail the link too', async () => {
    const after = smtp.received.length;
    const door = await t.request('POST', `/api/in/${ws.publicKey}/subscribe`, {
      body: { email: 'vis@example.com', list: 'letter', consent: { text: consent } },
      headers: { origin: SITE },
    });
    expect(door.body).toEqual({ ok: true, status: 'pending' });
    const batch = await post({
      events: [{ type: 'subscribe', email: 'bat@example.com', list: 'letter', consent }],
    });
    expect(batch.body.results[0]).toMatchObject({ ok: true, status: 'pending' });
    await mailTo('vis@example.com', after);
    const page = await (await browser.newContext()).newPage();
    await page.goto(linkOf(await mailTo('bat@example.com', after)));
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByText('Confirmed: you are subscribed.').waitFor();
    expect((await subscriptionOf('vis@example.com', 'letter')).status).toBe('pending');
    expect((await subscriptionOf('bat@example.com', 'letter')).status).toBe('subscribed');
  });

  it("the workspace's confirm-subscription template is the email once written", async () => {
    const made = await gql(
      `mutation { createTemplate(input: {name: "confirm-subscription", subject: "One click for {{ list.name }}",
        body: "Hi! Confirm here: {{ confirm_url }}"}) { id } }`,
    );
    expect(made.errors).toBeUndefined();
    const after = smtp.received.length;
    await post({ type: 'subscribe', email: 'tpl@example.com', list: 'letter', consent });
    const mail = await mailTo('tpl@example.com', after);
    expect(mail.raw).toMatch(/^Subject: One click for Weekly letter/m);
    expect(mailPart(mail, 'text/plain')).toContain('Hi! Confirm here:');
    expect(linkOf(mail)).toContain('/confirm/');
  });

  it('a pending subscription left unconfirmed for 30 days is removed; a younger one and a confirmed one stay', async () => {
    await post({ type: 'subscribe', email: 'late@example.com', list: 'letter', consent });
    const clock = new ManualClock(Date.now() + 29 * DAY_MS);
    const sweep = () =>
      new ConfirmationService(
        t.app.get(ConfirmationsRepository),
        t.app.get(PeopleRepository),
        t.app.get(TimelineRepository),
        t.app.get(OutboxWriter),
        t.app.get(SegmentMembership),
        clock,
      ).removeUnconfirmed();
    await sweep();
    expect((await subscriptionOf('late@example.com', 'letter')).status).toBe('pending');
    await clock.advance(2 * DAY_MS);
    expect(await sweep()).toBeGreaterThan(0);
    expect((await subscriptionOf('late@example.com', 'letter')).status).toBeUndefined();
    expect((await subscriptionOf('ada@example.com', 'letter')).status).toBe('subscribed');
  });
});
