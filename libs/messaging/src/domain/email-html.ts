// docs/decisions.md#email-html: the HTML part of an email keeps what Markdown makes and nothing that runs,
// reaches out by itself or links anywhere but the web and mail; one allow-list, applied to every rendered body.
import sanitizeHtml from 'sanitize-html';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
/** What marked makes of Markdown (GFM: tables, task lists, strikethrough), plus plain formatting authors type. */
const TAGS = [
  ...HEADINGS,
  ...['p', 'br', 'hr', 'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'a', 'img', 'input'],
  ...['strong', 'em', 'del', 'b', 'i', 'u', 's', 'sub', 'sup', 'small', 'span', 'div'],
  ...['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption'],
];
const CELL = ['align', 'colspan', 'rowspan'];

const EMAIL_HTML: sanitizeHtml.IOptions = {
  allowedTags: TAGS,
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start'],
    th: CELL,
    td: CELL,
    input: ['type', 'checked', 'disabled'],
  },
  // A fenced block's language (```js); no other class or style: the body is the person's letter, not a page.
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Other tags go and their text stays; script, style and textarea go with their text.
  disallowedTagsMode: 'discard',
  // A task list's box is the only input Markdown makes; any other kind of field is dropped.
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
};

/** The rendered body as the HTML part may carry it: only allowed tags and attributes, links http, https, mailto. */
export function safeEmailHtml(html: string): string {
  return sanitizeHtml(html, EMAIL_HTML);
}
