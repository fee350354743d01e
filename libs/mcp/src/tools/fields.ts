// Input shapes shared by the tools: the wire names of the REST routes (docs/rest.md), so a tool call reads like a post.
import { z } from 'zod';

export const identityShape = {
  email: z.string().optional().describe("The person's email address."),
  anon_id: z.string().optional().describe('The browser id kept by the website tag.'),
  account_id: z.string().optional().describe("The customer's own id for the person."),
};

export const answerShape = {
  ok: z.boolean(),
  status: z.string().describe('What happened, in the words of the events endpoint.'),
  id: z.string().optional().describe('The record it landed on.'),
};
