// GraphQL shapes of docs/graphql.md#automations (kinds are the spec's lower-case words, as on the wire).
import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('AutomationTrigger')
export class AutomationTriggerType {
  @Field({
    description:
      'event, stage_entered, subscribed, unsubscribed, segment_entered, segment_left, person_erased or webhook',
  })
  kind: string;
  @Field({ nullable: true, description: 'kind event: the event name' }) event?: string;
  @Field({ nullable: true, description: 'kind stage_entered: only this stage (any when absent)' }) stage?: string;
  @Field({ nullable: true, description: 'kind subscribed: only this list address (any when absent)' }) list?: string;
  @Field(() => ID, {
    nullable: true,
    description: 'kind segment_entered or segment_left: only this segment (any when absent)',
  })
  segment?: string;
}

@ObjectType('AutomationStep')
export class AutomationStepType {
  @Field({ description: 'http_request, send_email or wait' }) kind: string;
  @Field({ nullable: true }) url?: string;
  @Field({ nullable: true, description: 'A template name or id' }) template?: string;
  @Field(() => Int, { nullable: true, description: '1 second to 30 days' }) seconds?: number;
}

@ObjectType('Automation')
export class AutomationType {
  workspaceId: string;
  /** Set only on automation(id) answered to an owner or admin: the address field shows nothing elsewhere. */
  addressShown?: string | null;
  @Field(() => ID) id: string;
  @Field(() => Int) number: number;
  @Field() name: string;
  @Field({ description: 'draft, paused or running; only running automations start runs' }) status: string;
  @Field(() => AutomationTriggerType) trigger: AutomationTriggerType;
  @Field(() => [AutomationStepType]) steps: AutomationStepType[];
  @Field(() => Int, {
    description:
      'Events of history (imported through /v1/import, or older than the workspace history window on arrival) that ' +
      'matched the trigger and started no run.',
  })
  passedOverHistory: number;
  @Field() createdAt: Date;
}

@ObjectType('CreatedAutomation')
export class CreatedAutomationType {
  @Field(() => AutomationType) automation: AutomationType;
  @Field(() => String, {
    nullable: true,
    description: 'The start address, for a webhook trigger; shown here and on automation(id) only.',
  })
  address: string | null;
}

@ObjectType('AutomationRunPerson')
export class AutomationRunPersonType {
  @Field(() => ID) id: string;
  @Field(() => String, { nullable: true, description: 'Their email as it is now; absent when they have none.' })
  email?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
}

@ObjectType('AutomationLogLine')
export class AutomationLogLineType {
  @Field() at: Date;
  @Field() line: string;
}

@ObjectType('AutomationRun')
export class AutomationRunType {
  @Field(() => ID) id: string;
  @Field({ description: 'running, waiting, finished or failed' }) status: string;
  @Field() startedAt: Date;
  @Field({ nullable: true }) finishedAt?: Date;
  @Field(() => AutomationRunPersonType, { nullable: true }) person?: AutomationRunPersonType;
  @Field(() => [AutomationLogLineType]) log: AutomationLogLineType[];
  @Field(() => AutomationTriggerType, {
    description: 'The trigger the run started with (an edit leaves it as it was).',
  })
  trigger: AutomationTriggerType;
  @Field(() => Int, { description: 'The steps the run started with.' }) stepCount: number;
  @Field(() => Int, { description: 'Steps run so far, the one a failed run stopped at included.' }) stepsDone: number;
}

@InputType()
export class AutomationTriggerInput {
  @Field() kind: string;
  @Field({ nullable: true }) event?: string;
  @Field({ nullable: true }) stage?: string;
  @Field({ nullable: true }) list?: string;
  @Field(() => ID, { nullable: true }) segment?: string;
}

@InputType()
export class AutomationStepInput {
  @Field() kind: string;
  @Field({ nullable: true }) url?: string;
  @Field({ nullable: true }) template?: string;
  @Field(() => Int, { nullable: true }) seconds?: number;
}

@InputType()
export class CreateAutomationInput {
  @Field() name: string;
  @Field(() => AutomationTriggerInput) trigger: AutomationTriggerInput;
  @Field(() => [AutomationStepInput], { defaultValue: [] }) steps: AutomationStepInput[];
}

@InputType()
export class UpdateAutomationInput {
  @Field({ nullable: true }) name?: string;
  @Field(() => AutomationTriggerInput, { nullable: true }) trigger?: AutomationTriggerInput;
  @Field(() => [AutomationStepInput], { nullable: true }) steps?: AutomationStepInput[];
}
