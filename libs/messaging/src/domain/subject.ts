// docs/rest.md#messages: the subject line. Apart from message-input.ts so the render threads
// (libs/messaging/src/render) load it without the people and edge libs.

/** A subject is one line: line breaks become spaces, so nothing can be smuggled into mail headers. */
export function normalizeSubject(value: string): string {
  return value.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
