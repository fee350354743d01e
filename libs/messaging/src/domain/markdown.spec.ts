import { decodeEntities, markdownToHtml, markdownToText } from './markdown';

describe('markdownToHtml: Markdown becomes HTML', () => {
  it('renders headings, emphasis and links', () => {
    expect(markdownToHtml('# Hi\n\n**bold** [docs](https://docs.test)')).toBe('<h1>Hi</h1>\n<p><strong>bold</strong> <a href="https://docs.test">docs</a></p>\n');
  });
  it('keeps a single line break as a line break, as in a letter', () => {
    expect(markdownToHtml('Hi Ada,\nthanks')).toBe('<p>Hi Ada,<br>thanks</p>\n');
  });
});

describe('markdownToText: markup made readable', () => {
  it('writes a link as "label (url)"', () => {
    expect(markdownToText('Read [the docs](https://docs.test/start).')).toBe('Read the docs (https://docs.test/start).');
  });
  it('writes a bare or self-labelled link once', () => {
    expect(markdownToText('See https://docs.test and [https://a.test](https://a.test)')).toBe('See https://docs.test and https://a.test');
  });
  it('drops heading marks, emphasis stars and underscores', () => {
    const text = markdownToText('## Welcome\n\n**Bold**, *soft*, __strong__ and ~~gone~~');
    expect(text).toBe('Welcome\n\nBold, soft, strong and gone');
    expect(text).not.toMatch(/[#*_~]/);
  });
  it('keeps list markers, quotes and code readable', () => {
    expect(markdownToText('- one\n- two\n\n3. three\n4. four\n\n> said\n\n```\nnpm i\n```')).toBe('- one\n- two\n\n3. three\n4. four\n\n> said\n\nnpm i');
  });
  it('keeps backslash-escaped characters as the characters', () => {
    expect(markdownToText('2 \\* 3 \\# four')).toBe('2 * 3 # four');
  });
  it('drops raw HTML tags and decodes entities', () => {
    expect(markdownToText('<b>Tom</b> &amp; Jerry &#169; &#x263A;')).toBe('Tom & Jerry © ☺');
  });
  it('writes a table as rows of cells', () => {
    expect(markdownToText('| plan | price |\n|---|---|\n| pro | 10 |')).toBe('plan | price\npro | 10');
  });
});

describe('decodeEntities', () => {
  it('leaves unknown entities as written', () => {
    expect(decodeEntities('&bogus; &lt;')).toBe('&bogus; <');
  });
});
