// What goes to a render thread and what comes back (structured-cloned, so plain data only).
import type { RefusalCode } from '@app/wire';
import type { RenderContext, RenderedMessage } from '../domain/template';

export type RenderTask =
  | { kind: 'validate'; subject: string; body: string }
  | { kind: 'render'; message: { subject: string; body: string }; context: RenderContext };

export type RenderOutcome =
  { ok: true; rendered?: RenderedMessage } | { ok: false; code: RefusalCode; message: string };
