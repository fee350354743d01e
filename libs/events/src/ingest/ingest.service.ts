// interface.md "Events endpoint": parses each item, applies the batch in one transaction, and, when
// that transaction fails unexpectedly, applies each item alone so one bad item keeps the others.
import { Injectable, Logger } from '@nestjs/common';
import { Refusal, WorkspaceEntity } from '@app/core';
import { PeopleRepository } from '@app/people';
import { Command, EventCommand, parseItem } from '../domain';
import { TimelineRepository } from '../timeline.repository';
import { IngestUnit, ItemResult } from './ingest-unit';

export interface IngestOptions {
  /** The public door: consent.text required, only built-in event names. */
  publicDoor: boolean;
}

const SERVER_ERROR = 'The service could not finish; nothing was changed; send it again.';

@Injectable()
export class IngestService {
  private readonly logger = new Logger('Ingest');

  constructor(
    private readonly people: PeopleRepository,
    private readonly timeline: TimelineRepository,
  ) {}

  /** Parses one raw item, with the public door's extra rules. */
  parse(raw: unknown, options: IngestOptions): Command | Refusal {
    const command = parseItem(raw, { requireConsentText: options.publicDoor });
    if (options.publicDoor && !(command instanceof Refusal) && command.kind === 'event' && command.custom) {
      return new Refusal('unknown_event', `"${command.type}" is not a built-in event name: custom names are accepted only with a secret key.`);
    }
    return command;
  }

  async ingest(workspace: WorkspaceEntity, raws: unknown[], options: IngestOptions): Promise<ItemResult[]> {
    const now = new Date();
    const results: Array<ItemResult | undefined> = raws.map(() => undefined);
    const work: Array<{ index: number; command: Command }> = [];
    raws.forEach((raw, index) => {
      const command = this.parse(raw, options);
      if (command instanceof Refusal) results[index] = command;
      else if (isExpired(command, now)) results[index] = { ok: true, status: 'expired' }; // writes nothing, not even the person
      else work.push({ index, command });
    });
    if (work.length) {
      try {
        const applied = await this.applyAll(workspace, work.map((w) => w.command), now);
        work.forEach((w, i) => (results[w.index] = applied[i]));
      } catch (error) {
        if (work.length === 1) throw error;
        this.logger.warn(`batch transaction failed, applying items one by one: ${(error as Error).message}`);
        for (const w of work) {
          results[w.index] = await this.applyAll(workspace, [w.command], now).then(
            (applied) => applied[0],
            (itemError: Error) => {
              this.logger.error(`item ${w.index} failed: ${itemError.message}`);
              return new Refusal('server_error', SERVER_ERROR);
            },
          );
        }
      }
    }
    return results as ItemResult[];
  }

  private applyAll(workspace: WorkspaceEntity, commands: Command[], now: Date): Promise<ItemResult[]> {
    return this.people.transaction(async (m) => {
      const unit = new IngestUnit(m, workspace, this.people, this.timeline, now);
      await unit.prepare(commands);
      const results: ItemResult[] = [];
      for (const command of commands) results.push(await unit.apply(command));
      await unit.flush();
      return results;
    });
  }
}

function isExpired(command: Command, now: Date): command is EventCommand {
  return command.kind === 'event' && !!command.expiresAt && command.expiresAt.getTime() <= now.getTime();
}
