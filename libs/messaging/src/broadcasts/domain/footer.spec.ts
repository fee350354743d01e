import { withFooter } from './footer';

describe('withFooter', () => {
  const rendered = { subject: 'Hi', html: '<p>Hello</p>', text: 'Hello' };

  it('adds the postal address, its lines kept, and the link, to both parts; HTML escaped', () => {
    const out = withFooter(rendered, 'Acme <Ltd>\n 1 Main St ', 'https://x.test/preferences/t?a=1&b=2');
    expect(out.subject).toBe('Hi');
    expect(out.text).toBe(
      'Hello\n\n--\nAcme <Ltd>\n1 Main St\nUnsubscribe or change your email preferences: ' +
        'https://x.test/preferences/t?a=1&b=2',
    );
    expect(out.html).toContain('Acme &lt;Ltd&gt;<br>1 Main St<br>');
    expect(out.html).toContain('<a href="https://x.test/preferences/t?a=1&amp;b=2">');
    expect(out.html.startsWith('<p>Hello</p>')).toBe(true);
  });
});
