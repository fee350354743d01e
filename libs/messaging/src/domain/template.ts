// docs/rest.md#messages (body: the same markup templates use):
// Markdown with Liquid variables, rendered to a subject line, HTML and plain text.
import { randomBytes } from 'node:crypto';
// The light entry and ./subject: this file is also what the render threads load (../render/render.worker.ts).
import { escapeHtml, Refusal } from '@app/platform/plain';
import { Context, Liquid, Template } from 'liquidjs';
import { safeEmailHtml } from './email-html';
import { markdownToHtml, markdownToText } from './markdown';
import { normalizeSubject } from './subject';

export interface RenderContext {
  person: { id: string; name: string | null; email: string | null; fields: Record<string, unknown> };
  workspace?: Record<string, unknown>;
  /** The facts an automation's start post carried ({{ properties.plan }}); empty elsewhere. */
  properties?: Record<string, unknown>;
  /** The person's preference page (docs/security.md#the-preferences-link), as {{ preferences_url }}. */
  preferences_url?: string;
  /**
   * A double opt-in's confirmation email: the list, and its link as {{ confirm_url }}
   * (docs/security.md#the-confirmation-link).
   */
  list?: Record<string, unknown>;
  confirm_url?: string;
}

export interface RenderedMessage {
  subject: string;
  html: string;
  text: string;
}

/**
 * Every `{{ … }}` output becomes a slot token while Liquid runs; the values go back in after Markdown,
 * HTML-escaped in the HTML and as they are in the text, so a value can inject neither HTML nor Markdown.
 */
interface Slots {
  nonce: string;
  values: string[];
}

const SLOTS = 'lifeline:slots';
const MAX_CACHED = 500;

function outputValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(outputValue).join('');
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

function toSlot(this: { context: Context }, value: unknown): string {
  const slots = this.context.getRegister(SLOTS) as Slots | undefined;
  const text = outputValue(value);
  if (!slots || text === '') return text;
  slots.values.push(text);
  // 'x' is not a hex digit, so one slot's token is never a prefix of another's.
  return `x${slots.nonce}x${slots.values.length - 1}x`;
}

function createEngine(): Liquid {
  const engine = new Liquid({
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    outputEscape: toSlot,
    templates: {}, // no file system: a template can never read a file of the server
    parseLimit: 100_000,
    renderLimit: 1_000,
    memoryLimit: 10_000_000,
  });
  // Tags that load other templates have nothing to load here; refusing them at parse time says so early.
  for (const tag of ['include', 'render', 'layout', 'block']) delete engine.tags[tag];
  return engine;
}

const engine = createEngine();
const parsed = new Map<string, Template[]>();

function parse(source: string): Template[] {
  const hit = parsed.get(source);
  if (hit) return hit;
  const templates = engine.parse(source);
  if (parsed.size >= MAX_CACHED) parsed.delete(parsed.keys().next().value as string);
  parsed.set(source, templates);
  return templates;
}

/** The refusal of a template Liquid cannot parse or render; the render threads' limits say theirs the same way. */
export function liquidRefusal(part: 'subject' | 'body' | 'subject or body', error: unknown): Refusal {
  const detail = (error instanceof Error ? error.message : String(error)).split('\n')[0].replace(/\.$/, '');
  return new Refusal('invalid_field', `Fix the Liquid in the ${part} (${detail}), then send it again.`);
}

/** null when subject and body both parse as Liquid with known tags and filters. */
export function validateTemplate(subject: string, body: string): Refusal | null {
  for (const [part, source] of [
    ['subject', subject],
    ['body', body],
  ] as const) {
    try {
      parse(source);
    } catch (error) {
      return liquidRefusal(part, error);
    }
  }
  return null;
}

async function renderLiquid(
  part: 'subject' | 'body',
  source: string,
  scope: object,
): Promise<{ output: string; slots: Slots }> {
  const slots: Slots = { nonce: randomBytes(6).toString('hex'), values: [] };
  try {
    const context = new Context(scope, engine.options, {}, { liquid: engine });
    context.setRegister(SLOTS, slots);
    const output = (await engine.render(parse(source), context)) as string;
    return { output, slots };
  } catch (error) {
    throw liquidRefusal(part, error);
  }
}

function fillSlots(text: string, slots: Slots, encode: (value: string) => string): string {
  return text.replace(new RegExp(`x${slots.nonce}x(\\d+)x`, 'g'), (_, i: string) =>
    encode(slots.values[Number(i)] ?? ''),
  );
}

function scopeOf(context: RenderContext): object {
  const name = context.person.name ?? '';
  return {
    person: {
      ...context.person,
      name,
      first_name: name.trim().split(/\s+/)[0] ?? '',
      fields: context.person.fields ?? {},
    },
    workspace: context.workspace ?? {},
    properties: context.properties ?? {},
    preferences_url: context.preferences_url ?? '',
    list: context.list ?? {},
    confirm_url: context.confirm_url ?? '',
  };
}

/**
 * Liquid first (unknown filters refused, a missing variable renders empty), then Markdown, then the HTML part
 * through the allow-list (docs/decisions.md#email-html).
 * Throws Refusal('invalid_field') when Liquid cannot parse, or fails while rendering (for example over its time limit).
 */
export async function renderMessage(
  message: { subject: string; body: string },
  context: RenderContext,
): Promise<RenderedMessage> {
  // Both parts parse before either renders: a syntax error is refused as validateTemplate refuses it.
  const invalid = validateTemplate(message.subject, message.body);
  if (invalid) throw invalid;
  const scope = scopeOf(context);
  const subject = await renderLiquid('subject', message.subject, scope);
  const body = await renderLiquid('body', message.body, scope);
  const same = (value: string) => value;
  return {
    subject: normalizeSubject(fillSlots(subject.output, subject.slots, same)),
    // Sanitised once the values are in: a field filled into a Markdown link's address is held to the same rule.
    html: safeEmailHtml(fillSlots(markdownToHtml(body.output), body.slots, escapeHtml)).trim(),
    text: fillSlots(markdownToText(body.output), body.slots, same),
  };
}
