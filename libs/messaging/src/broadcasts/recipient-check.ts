// Whether recipients may get a broadcast's email now (docs/graphql.md#broadcasts): each person as they are, their
// list's subscription or their segment's membership, and their email standing, read for a batch at once.
import { Injectable } from '@nestjs/common';
import { SegmentsService } from '@app/events';
import { PeopleReadRepository, PersonRow } from '@app/people';
import { EmailStandingService } from '../email-standing.service';
import type { BroadcastLetter } from './broadcast-mail';
import { skipReason, SkipReason } from './domain/recipient';

@Injectable()
export class RecipientCheck {
  constructor(
    private readonly people: PeopleReadRepository,
    private readonly segments: SegmentsService,
    private readonly standing: EmailStandingService,
  ) {}

  /** Each person as they are now, or why they get nothing now. */
  async now(letter: BroadcastLetter, personIds: readonly string[]): Promise<Map<string, PersonRow | SkipReason>> {
    const { workspaceId, audience } = letter;
    const [people, inAudience, standings] = await Promise.all([
      this.people.byIds(workspaceId, personIds),
      this.inAudience(letter, personIds),
      this.standing.rowsOf(workspaceId, personIds),
    ]);
    const byId = new Map(people.map((p) => [p.id, p]));
    const answers = new Map<string, PersonRow | SkipReason>();
    for (const id of personIds) {
      const person = byId.get(id) ?? null;
      const rows = standings.filter((s) => s.person_id === id);
      const standing = person ? await this.standing.fromRows(workspaceId, person, rows) : noStanding;
      const reason = skipReason({ person, inAudience: inAudience.has(id), audience: audience.kind, ...standing });
      answers.set(id, reason ?? person!);
    }
    return answers;
  }

  /** Those subscribed to the broadcast's list now, or members of its segment now. */
  private async inAudience(letter: BroadcastLetter, personIds: readonly string[]): Promise<Set<string>> {
    const { workspaceId, audience } = letter;
    if (audience.kind === 'list') {
      const subscriptions = await this.people.subscriptionsOf(workspaceId, personIds);
      const subscribed = subscriptions.filter((s) => s.list_id === audience.listId && s.status === 'subscribed');
      return new Set(subscribed.map((s) => s.person_id));
    }
    const memberships = await this.segments.ofPeople(workspaceId, personIds);
    return new Set(memberships.filter((s) => s.id === audience.id).map((s) => s.person_id));
  }
}

const noStanding = { optOut: null, undeliverable: null };
