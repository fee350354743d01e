import { Refusal } from '@app/platform';
import { escapeHtml } from '@app/platform';
import { renderMessage, RenderContext, validateTemplate } from './template';

const ada = (over: Partial<RenderContext['person']> = {}): RenderContext => ({
  person: {
    id: 'per_01J0000000000000000000000A',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    fields: { plan: 'pro' },
    ...over,
  },
  workspace: { name: 'Acme' },
});

type Parts = Partial<Record<'subject' | 'html' | 'text', string>>;

describe('renderMessage: Liquid variables inside Markdown', () => {
  it.each<[string, { subject: string; body: string }, RenderContext, Parts]>([
    [
      'fills person.name and person.fields.plan, then renders Markdown to HTML and text',
      {
        subject: 'Welcome, {{ person.name }}',
        body: '# Hi {{ person.name }}\n\nYou are on **{{ person.fields.plan }}**.',
      },
      ada(),
      {
        subject: 'Welcome, Ada Lovelace',
        html: '<h1>Hi Ada Lovelace</h1>\n<p>You are on <strong>pro</strong>.</p>',
        text: 'Hi Ada Lovelace\n\nYou are on pro.',
      },
    ],
    [
      'renders a missing variable as empty (lenient variables)',
      { subject: 'Hi {{ person.fields.nickname }}there', body: 'Plan: {{ person.fields.tier.name }}{{ nobody }}.' },
      ada(),
      { subject: 'Hi there', text: 'Plan: .' },
    ],
    [
      'offers workspace values and the first name',
      { subject: '{{ workspace.name }}', body: 'Dear {{ person.first_name }}' },
      ada(),
      { subject: 'Acme', text: 'Dear Ada' },
    ],
    [
      'runs filters and tags',
      {
        subject: '{{ person.name | upcase }}',
        body: '{% if person.fields.plan == "pro" %}Thanks for paying{% else %}Try pro{% endif %}',
      },
      ada(),
      { subject: 'ADA LOVELACE', text: 'Thanks for paying' },
    ],
    [
      'writes a link in the text part as "label (url)" with the variable filled in',
      { subject: 'Hi', body: '[Upgrade](https://acme.test/up?who={{ person.id }})' },
      ada(),
      {
        text: 'Upgrade (https://acme.test/up?who=per_01J0000000000000000000000A)',
        html: '<p><a href="https://acme.test/up?who=per_01J0000000000000000000000A">Upgrade</a></p>',
      },
    ],
    [
      'keeps the subject to one line, without Markdown',
      { subject: '**Hi**\n{{ person.name }}', body: 'ok' },
      ada({ name: 'Ada\r\nBcc: eve@example.com' }),
      { subject: '**Hi** Ada Bcc: eve@example.com' },
    ],
  ])('%s', async (_rule, message, context, parts) => {
    const out = await renderMessage(message, context);
    for (const [part, value] of Object.entries(parts)) expect(out[part as keyof Parts]).toBe(value);
  });
  it("offers an automation run's properties, escaped in the HTML like every value", async () => {
    const out = await renderMessage(
      { subject: 'Your {{ properties.plan }} plan', body: 'Code: {{ properties.coupon }}' },
      { ...ada(), properties: { plan: 'pro', coupon: '<b>X</b>' } },
    );
    expect(out.subject).toBe('Your pro plan');
    expect(out.html).toBe('<p>Code: &lt;b&gt;X&lt;/b&gt;</p>');
    expect((await renderMessage({ subject: 'Hi {{ properties.plan }}there', body: 'Hello' }, ada())).subject).toBe(
      'Hi there',
    );
  });
});

describe("renderMessage: a person's values cannot inject HTML or Markdown", () => {
  const hostile = '<img src=x onerror=alert(1)> & "quoted" **bold** [phish](https://evil.test)';
  it('escapes HTML in a variable value in the HTML part', async () => {
    const out = await renderMessage({ subject: 'Hi', body: 'Hello {{ person.name }}' }, ada({ name: hostile }));
    // Quotes need no escape between tags; < > & do.
    expect(out.html).toBe(`<p>Hello ${escapeHtml(hostile).replace(/&quot;/g, '"')}</p>`);
    expect(out.html).not.toContain('<img');
    expect(out.html).not.toContain('<strong>');
    expect(out.html).not.toContain('<a ');
  });
  it('keeps the value as written in the text part and the subject', async () => {
    const out = await renderMessage(
      { subject: 'For {{ person.name }}', body: 'Hello {{ person.name }}' },
      ada({ name: hostile }),
    );
    expect(out.text).toBe(`Hello ${hostile}`);
    expect(out.subject).toBe(`For ${hostile}`);
  });
  it('escapes a value placed inside an HTML attribute by the author', async () => {
    const out = await renderMessage(
      { subject: 'Hi', body: '<a href="https://acme.test/?q={{ person.fields.q }}">go</a>' },
      ada({ fields: { q: '"><script>x</script>' } }),
    );
    expect(out.html).toContain('q=&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });
  it.each(['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x'])(
    'a field put in a Markdown link cannot make it a %j link; an https one stays a link',
    async (website) => {
      const body = '[my site]({{ person.fields.website }}) and [docs]({{ person.fields.docs }})';
      const out = await renderMessage(
        { subject: 'Hi', body },
        ada({ fields: { website, docs: 'https://d.test/?a=1' } }),
      );
      expect(out.html).toBe('<p><a>my site</a> and <a href="https://d.test/?a=1">docs</a></p>');
    },
  );
  it("keeps the author's raw HTML only as far as the allow-list goes", async () => {
    const out = await renderMessage(
      { subject: 'Hi', body: 'Hi <b>{{ person.first_name }}</b><script>steal()</script> <img src=x onerror=alert(1)>' },
      ada(),
    );
    expect(out.html).toBe('<p>Hi <b>Ada</b> <img src="x" /></p>');
  });
  it('cannot reach the prototype of a value', async () => {
    const out = await renderMessage(
      { subject: 'Hi', body: 'x{{ person.fields.constructor }}{{ person.name.constructor.name }}y' },
      ada(),
    );
    expect(out.text).toBe('xy');
  });
});

describe('validateTemplate: Liquid syntax errors are refused with invalid_field', () => {
  it('accepts a valid subject and body', () => {
    expect(validateTemplate('Hi {{ person.name }}', 'Plan {{ person.fields.plan | default: "free" }}')).toBeNull();
  });
  it.each([
    ['an unknown filter (strict filters)', 'Hi', '{{ person.name | shout }}', /body.*undefined filter: shout/],
    ['an unclosed output', 'Hi {{ person.name', 'ok', /subject.*not closed/],
    ['an unknown tag', 'Hi', '{% frobnicate %}', /body.*frobnicate/],
    ['an unclosed if', 'Hi', '{% if person.name %}yes', /body.*if/],
    ['a tag that loads a file from the server', 'Hi', '{% include "/etc/passwd" %}', /body.*include/],
  ])('refuses %s, naming the part and the error', (_label, subject, body, pattern) => {
    const r = validateTemplate(subject, body);
    expect(r).toBeInstanceOf(Refusal);
    expect(r?.code).toBe('invalid_field');
    expect(r?.message).toMatch(pattern);
    expect(r?.message).not.toContain('\n');
  });
  it('refuses the same error again from the parse cache', () => {
    expect(validateTemplate('Hi', '{{ a | shout }}')?.code).toBe('invalid_field');
    expect(validateTemplate('Hi', '{{ a | shout }}')?.code).toBe('invalid_field');
  });
});

describe('renderMessage: a broken template is a refusal, not a crash', () => {
  it('throws invalid_field for a template with an unknown filter', async () => {
    await expect(renderMessage({ subject: 'Hi', body: '{{ person.name | shout }}' }, ada())).rejects.toMatchObject({
      code: 'invalid_field',
    });
  });
  it('throws invalid_field when a loop runs past the render limit', async () => {
    const body = '{% for i in (1..100000000) %}{{ i }}{% endfor %}';
    await expect(renderMessage({ subject: 'Hi', body }, ada())).rejects.toMatchObject({ code: 'invalid_field' });
  }, 10_000);
});
