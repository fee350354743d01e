// What a render thread runs (loaded by piscina in each thread of RenderPool). It loads
// the template rules alone, not the rest of the lib; a refusal comes back as plain data to rebuild.
import { isRefusal } from '@app/platform/plain';
import { renderMessage, validateTemplate } from '../domain/template';
import type { RenderOutcome, RenderTask } from './render-task';

// A first render in a new thread compiles Liquid's and the Markdown renderer's code as it goes, which on a
// busy machine can outlast Liquid's render limit (1 s) on its own: the thread renders once as it starts.
const warmed = renderMessage(
  { subject: 'Hi {{ person.name }}', body: '# {{ person.name | upcase }}\n\n**{{ properties.x }}**' },
  {
    person: { id: 'per_warm', name: 'Warm', email: 'warm@example.com', fields: {} },
    properties: { x: 1 },
  },
).catch(() => undefined);

export default async function run(task: RenderTask): Promise<RenderOutcome> {
  await warmed;
  try {
    if (task.kind === 'validate') {
      const invalid = validateTemplate(task.subject, task.body);
      return invalid ? { ok: false, code: invalid.code, message: invalid.message } : { ok: true };
    }
    return { ok: true, rendered: await renderMessage(task.message, task.context) };
  } catch (error) {
    if (isRefusal(error)) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
