// unsubscribe: the unsubscribe action of POST /api/v1/events, through the same ingest service
// (docs/rest.md#coming-off-a-list).
import { z } from 'zod';
import { Refusal } from '@app/platform';
import type { IngestService } from '@app/events';
import { defineTool } from './tool';
import { answerShape } from './fields';

export function listTools(ingest: IngestService) {
  const unsubscribe = defineTool({
    name: 'unsubscribe',
    description:
      'Take an email off a mailing list, as the unsubscribe action of POST /api/v1/events does (withdrawn via ' +
      'api). The consent words they gave stay on record beside the withdrawal; the timeline gets a row ' +
      'unsubscribed and the unsubscribed trigger fires. Answers unsubscribed, or not_subscribed when the email ' +
      'is not on that list. The list is its address, as list_lists shows it.',
    input: {
      email: z.string().describe("The subscriber's email address."),
      list: z.string().describe('The list address, as list_lists shows it.'),
    },
    output: answerShape,
    run: async (call, input) => {
      const item = { type: 'unsubscribe', email: input.email, list: input.list };
      const [result] = await ingest.ingest(call.workspace, [item], { publicDoor: false, door: 'unsubscribe' });
      if (result instanceof Refusal) throw result;
      return result as { ok: true; status: string; id?: string };
    },
  });
  return [unsubscribe];
}
