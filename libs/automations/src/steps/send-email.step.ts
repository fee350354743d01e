// docs/graphql.md#automations: send_email renders the template for the person (and the run's properties, as {{
// properties.name }}) and sends it through the messaging service, under the same rules as POST /api/v1/messages (the
// engaged rule among them). A refusal (not_engaged, no_email, a template deleted since) becomes the step's line and
// fails the run: later steps usually assume the email went out (docs/decisions.md#automations).
import { Injectable } from '@nestjs/common';
import { Refusal } from '@app/platform';
import { MessagesService } from '@app/messaging';
import { emailRefusedLine, emailSentLine } from '../domain';
import type { StepContext, StepOutcome } from './step';

@Injectable()
export class SendEmailStep {
  constructor(private readonly messages: MessagesService) {}

  async run(step: { template: string }, { run, workspace }: StepContext): Promise<StepOutcome> {
    if (!run.person_id)
      return { line: emailRefusedLine(step.template, 'no_such_person', 'The run names nobody.'), next: 'fail' };
    try {
      const sent = await this.messages.sendFor(
        workspace.id,
        { to: run.person_id, template: step.template },
        {
          waitForProvider: false,
          properties: run.properties ?? {},
        },
      );
      return { line: emailSentLine(step.template, sent.id), next: 'continue' };
    } catch (error) {
      if (error instanceof Refusal)
        return { line: emailRefusedLine(step.template, error.code, error.message), next: 'fail' };
      throw error;
    }
  }
}
