// track_event and identify_person: the same ingest service as POST /api/v1/events.
import { Refusal } from '@app/platform';
import type { IngestService } from '@app/events';
import { z } from 'zod';
import { defineTool, ToolCall } from './tool';
import { answerShape, identityShape } from './fields';

async function ingestOne(
  ingest: IngestService,
  call: ToolCall,
  item: Record<string, unknown>,
  door: 'event' | 'identify',
) {
  const [result] = await ingest.ingest(call.workspace, [item], { publicDoor: false, door });
  if (result instanceof Refusal) throw result;
  return result as { ok: true; status: string; id?: string };
}

export function eventTools(ingest: IngestService) {
  const trackEvent = defineTool({
    name: 'track_event',
    description:
      'Record one thing a person did (an event) on their timeline, exactly as POST /api/v1/events does. Name ' +
      'the person with email, anon_id or account_id (several join them into one person). type is a built-in ' +
      'name (pageview, signup, purchase, trial_started, churned, ...) or a custom name of 2 to 40 lowercase ' +
      'letters, digits and underscores. Built-in names move lifecycle stages; custom names never do. Answers ' +
      'status recorded, or expired when expires_at has passed.',
    input: {
      type: z.string().describe('The event name, built-in or custom.'),
      ...identityShape,
      value: z.number().optional().describe('Money for a purchase, in whole currency units.'),
      properties: z.record(z.string(), z.unknown()).optional().describe('Anything else to keep on the timeline row.'),
      occurred_at: z.string().optional().describe('ISO 8601 time it happened; default now.'),
      expires_at: z.string().optional().describe('ISO 8601 time after occurred_at when the timeline row is deleted.'),
      idempotency_key: z.string().optional().describe('Your id for the thing that happened: a repeat writes nothing.'),
      detail: z.string().optional().describe('One line shown beside the event on the timeline.'),
    },
    output: answerShape,
    run: (call, input) => ingestOne(ingest, call, input, 'event'),
  });

  const identifyPerson = defineTool({
    name: 'identify_person',
    description:
      'Tell Lifeline that the given keys (email, anon_id, account_id) are one person, and set their name or ' +
      'fields, as an identify post does. Writes no timeline row. Answers created (a new person), merged (two ' +
      'people became one) or linked (keys added to, or already on, one person).',
    input: {
      ...identityShape,
      name: z.string().optional().describe('The name the person typed.'),
      fields: z
        .record(z.string(), z.union([z.string(), z.number(), z.null()]))
        .optional()
        .describe('Fields on the person by key, like a phone or a title.'),
    },
    output: answerShape,
    run: (call, input) => ingestOne(ingest, call, { type: 'identify', ...input }, 'identify'),
  });

  return [trackEvent, identifyPerson];
}
