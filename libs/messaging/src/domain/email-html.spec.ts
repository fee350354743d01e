import { safeEmailHtml } from './email-html';
import { markdownToHtml } from './markdown';

/** The same markup however it is spelled: `<br>` or `<br />`, `checked=""` or `checked`. */
const spelled = (html: string) => html.replace(/ \/>/g, '>').replace(/=""/g, '');

describe('safeEmailHtml: the HTML part keeps what Markdown makes', () => {
  it.each([
    ['headings, paragraphs, emphasis and line breaks', '# Hi\n\n## Sub\n\n**bold** *soft* ~~gone~~\nnext'],
    [
      'links to https, http and mailto, with a title',
      '[a](https://a.test "t") [b](http://b.test) [c](mailto:c@d.test)',
    ],
    ['an address written out, and an email address', 'See <https://a.test> or write to ada@example.com'],
    ['an image over https', '![logo](https://cdn.test/logo.png "Logo")'],
    ['lists, a numbered list from 3, and a task list', '- one\n- two\n\n3. three\n\n- [x] done\n- [ ] to do'],
    ['quotes, code and a rule', '> said\n\n`npm i`\n\n```js\nlet x = 1;\n```\n\n---'],
    ['a table with aligned columns', '| plan | price |\n|:--|--:|\n| pro | 10 |'],
  ])('keeps %s unchanged', (_what, markdown) => {
    const html = markdownToHtml(markdown);
    expect(spelled(safeEmailHtml(html))).toBe(spelled(html));
  });
});

describe('safeEmailHtml: nothing that runs, reaches out or links anywhere but the web and mail', () => {
  it.each([
    ['a script, with its text', 'Hi<script>alert(1)</script> there', 'Hi there'],
    ['a style, with its text', '<style>body{display:none}</style>Hi', 'Hi'],
    ['an on* handler', '<img src="https://a.test/x.png" onerror="alert(1)">', '<img src="https://a.test/x.png" />'],
    ['a javascript: link', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    [
      'a javascript: link in capitals, with a tab and entities',
      '<a href="JaVa&#x09;script&colon;alert(1)">x</a>',
      '<a>x</a>',
    ],
    ['a data: link', '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>', '<a>x</a>'],
    ['a vbscript: link', '<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['a tel: link (not a scheme email needs)', '<a href="tel:+1555">x</a>', '<a>x</a>'],
    ['a data: image', '<img src="data:image/png;base64,AAAA" alt="a">', '<img alt="a" />'],
    ['a mailto: image', '<img src="mailto:a@b.test" alt="a">', '<img alt="a" />'],
    ['a protocol-relative address', '<a href="//evil.test/x">x</a>', '<a>x</a>'],
    [
      'an iframe, a form and its fields, keeping their words',
      '<iframe src="https://e.test"></iframe><form>Name <input name="n"></form>',
      'Name ',
    ],
    ['a style attribute, a class and an id', '<p style="position:fixed" class="x" id="y">Hi</p>', '<p>Hi</p>'],
    [
      'an object, a meta refresh and a base',
      '<object data="x"></object><meta http-equiv="refresh"><base href="https://e.test">Hi',
      'Hi',
    ],
    [
      'an svg with a script inside',
      '<svg><script>alert(1)</script><a xlink:href="javascript:alert(1)">x</a></svg>',
      '<a>x</a>',
    ],
  ])('removes %s', (_what, html, safe) => {
    expect(safeEmailHtml(html)).toBe(safe);
  });

  it('removes a javascript: link Markdown made, keeping its words', () => {
    expect(safeEmailHtml(markdownToHtml('[x](javascript:alert(1)) and [y](https://y.test)')).trim()).toBe(
      '<p><a>x</a> and <a href="https://y.test">y</a></p>',
    );
  });
});
