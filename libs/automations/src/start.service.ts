// docs/rest.md#an-automations-start-address: a signed address, no
// key. A wrong signature answers as an unknown automation does (404 not_found); 600 posts per ten
// minutes per address, counted after the signature holds (the address's door: automation-address.controller.ts);
// a paused or draft automation answers 200 paused and writes nothing; an email on the suppression list
// (an erased person's) answers 200 suppressed and starts nothing, as every door answers it; a post here
// starts no outgoing webhooks (it writes no happening: a person it creates is created quietly).
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, newId, Refusal } from '@app/platform';
import { WorkspacesService } from '@app/workspaces';
import { IngestService } from '@app/events';
import { SUPPRESSED_STATUS } from '@app/wire';
import { PeopleReadRepository } from '@app/people';
import { AutomationRow, AutomationsRepository } from './automations.repository';
import { propertyNames, StartBody, StartPerson, startedLine, verifiedAutomationId } from './domain';
import { RunQueue } from './run-queue';
import { RunsRepository } from './runs.repository';

export type StartStatus = 'started' | 'paused' | 'suppressed';

/** What an automation's address answers (a paused or draft automation, or an erased person, is no error). */
export interface StartAnswer {
  ok: true;
  status: StartStatus;
}

@Injectable()
export class StartService {
  constructor(
    private readonly automations: AutomationsRepository,
    private readonly runs: RunsRepository,
    private readonly queue: RunQueue,
    private readonly workspaces: WorkspacesService,
    private readonly ingest: IngestService,
    private readonly people: PeopleReadRepository,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** Starts a run of the automation an address named (automationAt) for the body's person. */
  async start(automation: AutomationRow, body: StartBody): Promise<StartAnswer> {
    if (automation.status !== 'running') return { ok: true, status: 'paused' };

    const personId = await this.personOf(automation.workspace_id, body.person);
    if (personId === null) return { ok: true, status: SUPPRESSED_STATUS };
    const [run] = await this.runs.insert(null, [
      {
        workspaceId: automation.workspace_id,
        id: newId('run'),
        automationId: automation.id,
        personId,
        outboxId: null,
        trigger: automation.trigger,
        steps: automation.steps,
        properties: body.properties,
        firstLine: startedLine(automation.trigger, propertyNames(body.properties)),
      },
    ]);
    // Queued after commit; if Redis is down the run is due in PostgreSQL and the worker's poll starts it.
    await this.queue.enqueue([run]);
    return { ok: true, status: 'started' };
  }

  /** The automation a signed address names, if its trigger is still its address; else not_found. */
  async automationAt(addressPart: string): Promise<AutomationRow> {
    const id = verifiedAutomationId(this.config.appSecret, addressPart);
    const automation = id ? await this.automations.byId(id) : null;
    if (!automation || automation.trigger.kind !== 'webhook') {
      throw new Refusal(
        'not_found',
        "No automation starts at this address: copy the address again from the automation's page.",
      );
    }
    return automation;
  }

  /**
   * { email } may create a person (on no list, no consent, not engaged); anon_id and record only find one.
   * null: the email is an erased person's (the ingest answered suppressed and wrote nothing).
   */
  private async personOf(workspaceId: string, person: StartPerson): Promise<string | null> {
    if (person.by === 'email') {
      const workspace = await this.workspaces.get(workspaceId);
      const [result] = await this.ingest.ingest(workspace, [{ type: 'identify', email: person.email }], {
        publicDoor: false,
      });
      if (result instanceof Refusal) throw result;
      return result.status === SUPPRESSED_STATUS ? null : result.id!;
    }
    const found =
      person.by === 'record'
        ? await this.people.byId(workspaceId, person.id)
        : await this.people.byIdentity(workspaceId, 'anon_id', person.anonId);
    if (!found) {
      throw new Refusal(
        'no_such_person',
        `No person has that ${person.by}: the address only finds people by ${person.by}; send their email to ` +
          `add someone new.`,
      );
    }
    return found.id;
  }
}
