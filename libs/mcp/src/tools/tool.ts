// One tool of the tool door: a name, a description a model can act on, zod input and output shapes,
// and a run that calls the same service as the REST route or GraphQL field it mirrors.
import type { AuthContext, WorkspaceEntity } from '@app/workspaces';
import type { z } from 'zod';

export interface ToolCall {
  auth: AuthContext;
  workspace: WorkspaceEntity;
}

export interface ToolDefinition<In extends z.ZodRawShape = z.ZodRawShape, Out extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  description: string;
  input: In;
  output: Out;
  /** It writes nothing: its reads may be served by the read replica (docs/decisions.md#read-replica). */
  readOnly?: true;
  /** Resolves to the structured answer; a Refusal thrown here becomes an isError result. */
  run(call: ToolCall, input: z.infer<z.ZodObject<In>>): Promise<z.infer<z.ZodObject<Out>> & { status?: string }>;
}

export function defineTool<In extends z.ZodRawShape, Out extends z.ZodRawShape>(
  tool: ToolDefinition<In, Out>,
): ToolDefinition<In, Out> {
  return tool;
}
