// docs/webhooks.md#automation-posts: the outgoing webhook body (type automation, data
// {automation:{number,name}, trigger:{kind,event}}), signed sha256= under the workspace's derived step
// secret, one attempt of at most ten seconds through the same sending function and checking agent as
// outgoing webhooks (the address rule again at run time), and one log line. Never retried; whatever
// the answer, the run goes on to its next step (docs/decisions.md#automations).
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, newId } from '@app/platform';
import { PeopleReadRepository } from '@app/people';
import {
  ATTEMPT_TIMEOUT_MS,
  automationStepData,
  buildWebhookBody,
  deriveWorkspaceStepSecret,
  personRecord,
  postSigned,
} from '@app/webhooks';
import { httpRequestLine, triggerFacts } from '../domain';
import type { StepContext, StepOutcome } from './step';

@Injectable()
export class HttpRequestStep {
  constructor(
    private readonly people: PeopleReadRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async run(step: { url: string }, { run, automation, workspace }: StepContext): Promise<StepOutcome> {
    const person = run.person_id ? await this.people.byId(workspace.id, run.person_id) : null;
    const id = newId('dlv');
    const body = buildWebhookBody({
      deliveryId: id,
      type: 'automation',
      at: new Date(),
      workspace,
      record: person ? personRecord(person) : { id: run.person_id ?? '', kind: 'person', name: '' },
      data: automationStepData(automation, triggerFacts(run.trigger)),
    });
    // The same signed post as outgoing webhooks: X-Service-* and the Standard Webhooks headers.
    const answer = await postSigned(
      step.url,
      { id, type: 'automation', body },
      { secret: deriveWorkspaceStepSecret(this.config.appSecret, workspace.id) },
      { timeoutMs: ATTEMPT_TIMEOUT_MS, allowPrivate: this.config.allowPrivateTargets },
    );
    return { line: httpRequestLine(step.url, answer), next: 'continue' };
  }
}
