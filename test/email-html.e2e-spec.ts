// The HTML part of an email carries only the allow-list's markup (docs/security.md#email-html): a body's raw
// script, handlers and javascript: links, and a link fed by a field an anonymous visitor set, never reach it.
import { eventually, useApp, useWorkspace } from './harness';
import { mailPart, useSmtp } from './support/smtp';

const SITE = 'https://shop.example.com';
const smtp = useSmtp();
const t = useApp({ worker: true, env: () => ({ SMTP_URL: smtp.url, EMAIL_FROM: 'Lifeline <hello@lifeline.test>' }) });
const ws = useWorkspace(t, { origins: [SITE] });

const BODY = [
  'Hi {{ person.first_name }},',
  '<script>alert("body")</script>',
  '<img src="https://cdn.test/x.png" onerror="alert(2)">',
  '[x](javascript:alert(1)) [my site]({{ person.fields.homepage }})',
  '[docs](https://docs.test/start) or [write to us](mailto:help@acme.test)',
].join('\n\n');

/** What none of the HTML part may hold. */
const HOSTILE = [/<script/i, /alert/, /onerror/i, /javascript:/i];

beforeEach(async () => {
  // An anonymous visitor names a field through the website's identify; later the server joins them to an email.
  const visitor = await t.request('POST', `/api/in/${ws.publicKey}/identify`, {
    body: { anon_id: 'anon-eve', name: 'Eve', fields: { homepage: 'javascript:alert(document.domain)' } },
    headers: { origin: SITE },
  });
  expect(visitor.body).toEqual({ ok: true, status: 'created' });
  const signup = await t.request('POST', '/api/v1/events', {
    key: ws.secretKey,
    body: { type: 'signup', email: 'eve@example.com', anon_id: 'anon-eve' },
  });
  expect(signup.body.ok).toBe(true);
});

function expectSafe(html: string): void {
  for (const pattern of HOSTILE) expect(html).not.toMatch(pattern);
  expect(html).toContain('<a href="https://docs.test/start">docs</a>');
  expect(html).toContain('<a href="mailto:help@acme.test">write to us</a>');
  expect(html).toContain('<img src="https://cdn.test/x.png" />');
  expect(html).toContain('<a>my site</a>');
}

it('an email sent through SMTP carries no script, handler or javascript: link, and keeps the safe links', async () => {
  const answer = await t.request('POST', '/api/v1/messages', {
    key: ws.secretKey,
    body: { to: 'eve@example.com', subject: 'Your links', body: BODY },
  });
  expect(answer.body).toEqual({ ok: true, id: expect.stringMatching(/^msg_/), providerId: expect.any(String) });
  const mail = await eventually(async () => smtp.received.find((m) => m.raw.includes('Your links')));
  const html = mailPart(mail, 'text/html')!;
  expect(html).toContain('<p>Hi Eve,</p>');
  expectSafe(html);
  const [stored] = await t.db.query(`SELECT html FROM messages WHERE id = $1`, [answer.body.id]);
  expect(stored.html).toBe(html.replace(/\r\n/g, '\n')); // SMTP writes CRLF line ends
  // The plain part has no markup to run; its links read as the words and the address.
  expect(mailPart(mail, 'text/plain')).toContain('docs (https://docs.test/start)');
});

it('a template previewed over GraphQL is held to the same allow-list', async () => {
  const created = await t.gql(
    'mutation($i: CreateTemplateInput!) { createTemplate(input: $i) { id } }',
    { i: { name: 'links', subject: 'Your links', body: BODY } },
    ws.secretKey,
  );
  expect(created.errors).toBeUndefined();
  const preview = await t.gql('{ previewTemplate(id: "links", person: "eve@example.com") { html } }', {}, ws.secretKey);
  expectSafe(preview.data.previewTemplate.html);
});
