// docs/rest.md#messages: the body markup is Markdown, rendered to HTML and to readable plain text.
import { createRequire } from 'node:module';
import type { Marked as MarkedClass, Token, Tokens } from 'marked';

// marked ships ESM only; Node's own require (20.19+) loads it, while Jest's module registry cannot.
const nodeRequire = (process.getBuiltinModule?.('node:module')?.createRequire ?? createRequire)(__filename);
const { Marked } = nodeRequire('marked') as { Marked: typeof MarkedClass };

// breaks: people write emails as letters, so a single line break stays a line break.
const marked = new Marked({ gfm: true, breaks: true, async: false });

export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown, { async: false });
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1].toLowerCase() === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function stripTags(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ''));
}

function inline(tokens: Token[] | undefined): string {
  return (tokens ?? []).map(inlineToken).join('');
}

function inlineToken(token: Token): string {
  switch (token.type) {
    case 'text':
      return 'tokens' in token && token.tokens ? inline(token.tokens) : decodeEntities((token as Tokens.Text).text);
    case 'escape':
    case 'codespan':
      return (token as Tokens.Escape | Tokens.Codespan).text;
    case 'strong':
    case 'em':
    case 'del':
      return inline((token as Tokens.Strong).tokens);
    case 'br':
      return '\n';
    case 'link':
      return linkText(token as Tokens.Link);
    case 'image':
      return decodeEntities((token as Tokens.Image).text);
    case 'html':
      return stripTags((token as Tokens.HTML).text);
    case 'checkbox':
      return (token as Tokens.Checkbox).checked ? '[x] ' : '[ ] ';
    default:
      return 'tokens' in token && Array.isArray(token.tokens) ? inline(token.tokens) : decodeEntities(token.raw);
  }
}

/** A link reads as "label (url)", or just the url when the label already is it. */
function linkText(link: Tokens.Link): string {
  const label = inline(link.tokens).trim();
  const href = link.href;
  if (!label || label === href) return href;
  if (href === `mailto:${label}`) return label;
  return `${label} (${href})`;
}

function indent(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? first : line === '' ? '' : rest) + line)
    .join('\n');
}

function blocks(tokens: Token[]): string {
  return tokens
    .map(blockToken)
    .filter((part) => part !== '')
    .join('\n\n');
}

function blockToken(token: Token): string {
  switch (token.type) {
    case 'space':
    case 'def':
      return '';
    case 'heading':
    case 'paragraph':
      return inline((token as Tokens.Paragraph).tokens).trim();
    case 'text':
      return inlineToken(token).trim();
    case 'code':
      return (token as Tokens.Code).text;
    case 'hr':
      return '---';
    case 'blockquote':
      return blocks((token as Tokens.Blockquote).tokens)
        .split('\n')
        .map((line) => (line ? `> ${line}` : '>'))
        .join('\n');
    case 'list':
      return listText(token as Tokens.List);
    case 'table':
      return tableText(token as Tokens.Table);
    case 'html':
      return stripTags((token as Tokens.HTML).text).trim();
    default:
      return 'tokens' in token && Array.isArray(token.tokens) ? inline(token.tokens) : decodeEntities(token.raw).trim();
  }
}

function listText(list: Tokens.List): string {
  const start = typeof list.start === 'number' ? list.start : 1;
  return list.items
    .map((item, i) => {
      const marker = list.ordered ? `${start + i}. ` : '- ';
      const body = item.tokens
        .map(blockToken)
        .filter((part) => part !== '')
        .join(item.loose ? '\n\n' : '\n');
      return indent(body, marker, ' '.repeat(marker.length));
    })
    .join(list.loose ? '\n\n' : '\n');
}

function tableText(table: Tokens.Table): string {
  const row = (cells: Tokens.TableCell[]) => cells.map((cell) => inline(cell.tokens).trim()).join(' | ');
  return [row(table.header), ...table.rows.map(row)].join('\n');
}

/** Markdown made readable as plain text: no markup characters, links as "label (url)". */
export function markdownToText(markdown: string): string {
  return blocks(marked.lexer(markdown))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
