// list_automations: the same read as the GraphQL automations list, never with an automation's start
// address (docs/rest.md#an-automations-start-address: never in an answer to a model).
import type { AutomationsService } from '@app/automations';
import { z } from 'zod';
import { defineTool } from './tool';

export function automationTools(automations: AutomationsService) {
  const listAutomations = defineTool({
    name: 'list_automations',
    readOnly: true,
    description:
      "The workspace's automations by number: name, status (draft, paused or running), trigger (an event name, " +
      'stage_entered, subscribed, unsubscribed, segment_entered, segment_left, person_erased or webhook, with the ' +
      'stage, list address or segment id it is limited to) and steps (http_request, send_email, wait). Start ' +
      'addresses are never shown.',
    input: {},
    output: {
      automations: z.array(
        z.object({
          id: z.string(),
          number: z.number(),
          name: z.string(),
          status: z.string(),
          trigger: z.object({
            kind: z.string(),
            event: z.string().optional(),
            stage: z.string().optional(),
            list: z.string().optional(),
            segment: z.string().optional(),
          }),
          steps: z.array(
            z.object({
              kind: z.string(),
              url: z.string().optional(),
              template: z.string().optional(),
              seconds: z.number().optional(),
            }),
          ),
        }),
      ),
    },
    run: async ({ auth }) => ({
      automations: (await automations.list(auth.workspaceId)).map(({ id, number, name, status, trigger, steps }) => ({
        id,
        number,
        name,
        status,
        trigger,
        steps,
      })),
    }),
  });
  return [listAutomations];
}
