import { Field, Float, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('WorkspaceLimit')
export class WorkspaceLimitType {
  @Field({
    description:
      'server_posts, tool_calls, automation_starts, website_subscribe, website_identify, website_event or ' +
      'website_support.',
  })
  limit: string;
  @Field(() => Int, { description: 'Calls a ten-minute window allows, counted as the limit counts (docs/rest.md).' })
  perTenMinutes: number;
  @Field({
    description: "True when no override is set: the deployment's default, the spec's figure unless configured.",
  })
  isDefault: boolean;
}

@ObjectType('LimitUsage')
export class LimitUsageType {
  @Field({ description: 'The limit, as WorkspaceLimit.limit names it.' }) limit: string;
  @Field({
    description: 'The secret key id, the automation id, or visitors (the busiest visitor of the website; no address).',
  })
  key: string;
  @Field({ nullable: true, description: "A secret key's hint (sk_live_… and its last four characters)." })
  keyHint?: string;
  @Field(() => Int, { description: 'The most the key spent of one ten-minute window in the last day.' }) used: number;
  @Field(() => Int, { description: 'The figure that window had.' }) perTenMinutes: number;
  @Field(() => Float, { description: 'used over perTenMinutes, 0 to 1.' }) share: number;
  @Field(() => Int, { description: 'Posts refused rate_limited in the last day.' }) refused: number;
  @Field({ description: 'When that window began.' }) at: Date;
}
