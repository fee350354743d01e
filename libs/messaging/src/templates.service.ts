// Templates (docs/graphql.md#messages-and-templates): saved, changed and previewed with the limits sending uses.
import { Injectable } from '@nestjs/common';
import { newId, Refusal } from '@app/platform';
import { PeopleQueryService } from '@app/people';
import { parseBody, parseSubject } from './domain';
import { EmailStandingService } from './email-standing.service';
import { MessageRenderer } from './render/message-renderer';
import { TemplateRow, TemplatesRepository } from './templates.repository';

export interface TemplateChanges {
  name?: string | null;
  subject?: string | null;
  body?: string | null;
}

function parseName(raw: string): string {
  const name = raw.trim();
  if (!name || name.length > 200) throw new Refusal('invalid_field', 'name must be 1 to 200 characters.');
  return name;
}

@Injectable()
export class TemplatesService {
  constructor(
    private readonly templates: TemplatesRepository,
    private readonly people: PeopleQueryService,
    private readonly renderer: MessageRenderer,
    private readonly standing: EmailStandingService,
  ) {}

  list(workspaceId: string): Promise<TemplateRow[]> {
    return this.templates.list(workspaceId);
  }

  async create(workspaceId: string, input: { name: string; subject: string; body: string }): Promise<TemplateRow> {
    const name = parseName(input.name);
    await this.checkTemplate(workspaceId, input.subject, input.body);
    const created = await this.templates.create(workspaceId, {
      id: newId('tpl'),
      name,
      subject: input.subject,
      body: input.body,
    });
    if (!created) throw new Refusal('conflict', `A template named "${name}" already exists: choose another name.`);
    return created;
  }

  async update(workspaceId: string, idOrName: string, changes: TemplateChanges): Promise<TemplateRow> {
    const current = await this.require(workspaceId, idOrName);
    const name = changes.name === null || changes.name === undefined ? undefined : parseName(changes.name);
    await this.checkTemplate(workspaceId, changes.subject ?? current.subject, changes.body ?? current.body);
    const updated = await this.templates.update(workspaceId, current.id, {
      name,
      subject: changes.subject ?? undefined,
      body: changes.body ?? undefined,
    });
    if (updated === 'taken')
      throw new Refusal('conflict', `A template named "${name}" already exists: choose another name.`);
    if (!updated)
      throw new Refusal('unknown_template', `No template has the name or id "${idOrName}": list them with templates.`);
    return updated;
  }

  /** The template filled in for a person, as it would be sent; nothing is sent or stored. */
  async preview(workspaceId: string, idOrName: string, person: string) {
    const template = await this.require(workspaceId, idOrName);
    const found = await this.people.byWho(workspaceId, person);
    if (!found) throw new Refusal('no_such_person', `No record has the address or id "${person}": check it.`);
    return this.renderer.render(
      workspaceId,
      { subject: template.subject, body: template.body },
      {
        person: { id: found.id, name: found.name, email: found.email, fields: found.fields ?? {} },
        preferences_url: this.standing.preferencesUrl(workspaceId, found.id),
      },
    );
  }

  /** A template with a syntax error, or out of the subject and body limits, is refused. */
  private async checkTemplate(workspaceId: string, subject: string, body: string): Promise<void> {
    await this.renderer.validate(workspaceId, subject, body);
    for (const outcome of [parseSubject(subject), parseBody(body)]) if (outcome instanceof Refusal) throw outcome;
  }

  private async require(workspaceId: string, idOrName: string): Promise<TemplateRow> {
    const template = await this.templates.byIdOrName(workspaceId, idOrName);
    if (!template)
      throw new Refusal('unknown_template', `No template has the name or id "${idOrName}": list them with templates.`);
    return template;
  }
}
