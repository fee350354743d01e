import { decodeEntities, markdownToHtml, markdownToText } from './markdown';

describe('markdownToHtml: Markdown becomes HTML', () => {
  it.each([
    [
      'renders headings, emphasis and links',
      '# Hi\n\n**bold** [docs](https://docs.test)',
      '<h1>Hi</h1>\n<p><strong>bold</strong> <a href="https://docs.test">docs</a></p>\n',
    ],
    ['keeps a single line break as a line break, as in a letter', 'Hi Ada,\nthanks', '<p>Hi Ada,<br>thanks</p>\n'],
  ])('%s', (_rule, markdown, html) => {
    expect(markdownToHtml(markdown)).toBe(html);
  });
});

describe('markdownToText: markup made readable', () => {
  it.each([
    [
      'writes a link as "label (url)"',
      'Read [the docs](https://docs.test/start).',
      'Read the docs (https://docs.test/start).',
    ],
    [
      'writes a bare or self-labelled link once',
      'See https://docs.test and [https://a.test](https://a.test)',
      'See https://docs.test and https://a.test',
    ],
    [
      'keeps list markers, quotes and code readable',
      '- one\n- two\n\n3. three\n4. four\n\n> said\n\n```\nnpm i\n```',
      '- one\n- two\n\n3. three\n4. four\n\n> said\n\nnpm i',
    ],
    ['keeps backslash-escaped characters as the characters', '2 \\* 3 \\# four', '2 * 3 # four'],
    ['drops raw HTML tags and decodes entities', '<b>Tom</b> &amp; Jerry &#169; &#x263A;', 'Tom & Jerry © ☺'],
    ['writes a table as rows of cells', '| plan | price |\n|---|---|\n| pro | 10 |', 'plan | price\npro | 10'],
  ])('%s', (_rule, markdown, text) => {
    expect(markdownToText(markdown)).toBe(text);
  });
  it('drops heading marks, emphasis stars and underscores', () => {
    const text = markdownToText('## Welcome\n\n**Bold**, *soft*, __strong__ and ~~gone~~');
    expect(text).toBe('Welcome\n\nBold, soft, strong and gone');
    expect(text).not.toMatch(/[#*_~]/);
  });
});

describe('decodeEntities', () => {
  it('leaves unknown entities as written', () => {
    expect(decodeEntities('&bogus; &lt;')).toBe('&bogus; <');
  });
});
