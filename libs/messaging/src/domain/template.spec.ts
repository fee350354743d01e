import { Refusal } from '@app/platform';
import { escapeHtml, renderMessage, RenderContext, validateTemplate } from './template';

const ada = (over: Partial<RenderContext['person']> = {}): RenderContext => ({
  person: { id: 'per_01J0000000000000000000000A', name: 'Ada Lovelace', email: 'ada@example.com', fields: { plan: 'pro' }, ...over },
  workspace: { name: 'Acme' },
});

describe('renderMessage: Liquid variables inside Markdown', () => {
  it('fills person.name and person.fields.plan, then renders Markdown to HTML and text', async () => {
    const out = await renderMessage({ subject: 'Welcome, {{ person.name }}', body: '# Hi {{ person.name }}\n\nYou are on **{{ person.fields.plan }}**.' }, ada());
    expect(out.subject).toBe('Welcome, Ada Lovelace');
    expect(out.html).toBe('<h1>Hi Ada Lovelace</h1>\n<p>You are on <strong>pro</strong>.</p>');
    expect(out.text).toBe('Hi Ada Lovelace\n\nYou are on pro.');
  });
  it('renders a missing variable as empty (lenient variables)', async () => {
    const out = await renderMessage({ subject: 'Hi {{ person.fields.nickname }}there', body: 'Plan: {{ person.fields.tier.name }}{{ nobody }}.' }, ada());
    expect(out.subject).toBe('Hi there');
    expect(out.text).toBe('Plan: .');
  });
  it('offers an automation run\'s properties, escaped in the HTML like every value', async () => {
    const out = await renderMessage({ subject: 'Your {{ properties.plan }} plan', body: 'Code: {{ properties.coupon }}' }, { ...ada(), properties: { plan: 'pro', coupon: '<b>X</b>' } });
    expect(out.subject).toBe('Your pro plan');
    expect(out.html).toBe('<p>Code: &lt;b&gt;X&lt;/b&gt;</p>');
    expect((await renderMessage({ subject: 'Hi {{ properties.plan }}there', body: 'Hello' }, ada())).subject).toBe('Hi there');
  });
  it('offers workspace values and the first name', async () => {
    const out = await renderMessage({ subject: '{{ workspace.name }}', body: 'Dear {{ person.first_name }}' }, ada());
    expect(out.subject).toBe('Acme');
    expect(out.text).toBe('Dear Ada');
  });
  it('runs filters and tags', async () => {
    const out = await renderMessage({ subject: '{{ person.name | upcase }}', body: '{% if person.fields.plan == "pro" %}Thanks for paying{% else %}Try pro{% endif %}' }, ada());
    expect(out.subject).toBe('ADA LOVELACE');
    expect(out.text).toBe('Thanks for paying');
  });
  it('writes a link in the text part as "label (url)" with the variable filled in', async () => {
    const out = await renderMessage({ subject: 'Hi', body: '[Upgrade](https://acme.test/up?who={{ person.id }})' }, ada());
    expect(out.text).toBe('Upgrade (https://acme.test/up?who=per_01J0000000000000000000000A)');
    expect(out.html).toBe('<p><a href="https://acme.test/up?who=per_01J0000000000000000000000A">Upgrade</a></p>');
  });
  it('keeps the subject to one line, without Markdown', async () => {
    const out = await renderMessage({ subject: '**Hi**\n{{ person.name }}', body: 'ok' }, ada({ name: 'Ada\r\nBcc: eve@example.com' }));
    expect(out.subject).toBe('**Hi** Ada Bcc: eve@example.com');
  });
});

describe('renderMessage: a person\'s values cannot inject HTML or Markdown', () => {
  const hostile = '<img src=x onerror=alert(1)> & "quoted" **bold** [phish](https://evil.test)';
  it('escapes HTML in a variable value in the HTML part', async () => {
    const out = await renderMessage({ subject: 'Hi', body: 'Hello {{ person.name }}' }, ada({ name: hostile }));
    expect(out.html).toBe(`<p>Hello ${escapeHtml(hostile)}</p>`);
    expect(out.html).not.toContain('<img');
    expect(out.html).not.toContain('<strong>');
    expect(out.html).not.toContain('<a ');
  });
  it('keeps the value as written in the text part and the subject', async () => {
    const out = await renderMessage({ subject: 'For {{ person.name }}', body: 'Hello {{ person.name }}' }, ada({ name: hostile }));
    expect(out.text).toBe(`Hello ${hostile}`);
    expect(out.subject).toBe(`For ${hostile}`);
  });
  it('escapes a value placed inside an HTML attribute by the author', async () => {
    const out = await renderMessage({ subject: 'Hi', body: '<a href="https://acme.test/?q={{ person.fields.q }}">go</a>' }, ada({ fields: { q: '"><script>x</script>' } }));
    expect(out.html).toContain('q=&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
  });
  it('cannot reach the prototype of a value', async () => {
    const out = await renderMessage({ subject: 'Hi', body: 'x{{ person.fields.constructor }}{{ person.name.constructor.name }}y' }, ada());
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
    await expect(renderMessage({ subject: 'Hi', body: '{{ person.name | shout }}' }, ada())).rejects.toMatchObject({ code: 'invalid_field' });
  });
  it('throws invalid_field when a loop runs past the render limit', async () => {
    const body = '{% for i in (1..100000000) %}{{ i }}{% endfor %}';
    await expect(renderMessage({ subject: 'Hi', body }, ada())).rejects.toMatchObject({ code: 'invalid_field' });
  }, 10_000);
});
