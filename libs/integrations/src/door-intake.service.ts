// docs/rest.md#third-party-doors: a post at /api/webhooks/{kind}/{token} is
// verified over its raw bytes before any parsing, mapped by its provider file to items of the events
// endpoint, and applied by the same ingest service as REST (stages, engaged, outbox triggers,
// idempotency). A redelivery of an answered provider event answers the same and writes nothing.
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig, CONFIG, Refusal } from '@app/platform';
import { DoorReceiptsRepository, headerValue, InboundPost, Verified, VerifierKey, verifyInbound } from '@app/edge';
import { WorkspacesService } from '@app/workspaces';
import { IngestService } from '@app/events';
import { openSecret } from '@app/webhooks';
import { createHash } from 'node:crypto';
import { authAItems, authBItems, DoorMapping, hostingItems, isDoorKind, paymentItems, VERIFIER_OF } from './domain';
import { DoorConnectionsRepository, DoorRow } from './door-connections.repository';
import { hashDoorToken } from './doors.service';
import { JwksCache } from './jwks-cache';

export interface DoorAnswer {
  ok: true;
  status: 'recorded' | 'ignored';
}

const NOT_FOUND = 'No door has this address: connect the door again and paste the address it answers.';

@Injectable()
export class DoorIntakeService {
  constructor(
    private readonly connections: DoorConnectionsRepository,
    private readonly receipts: DoorReceiptsRepository,
    private readonly jwks: JwksCache,
    private readonly ingest: IngestService,
    private readonly workspaces: WorkspacesService,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async receive(kind: string, token: string, post: InboundPost): Promise<DoorAnswer> {
    const door = isDoorKind(kind) ? await this.connections.byTokenHash(hashDoorToken(token)) : null;
    if (!door || door.kind !== kind) throw new Refusal('not_found', NOT_FOUND);
    const verified = await verifyInbound(VERIFIER_OF[door.kind], post, this.keyOf(door));
    if (verified instanceof Refusal) throw verified;
    // A scheme without a delivery id of its own: the exact bytes name the delivery.
    const deliveryId = verified.deliveryId ?? createHash('sha256').update(post.raw).digest('hex');
    const mapping = this.map(door, verified, deliveryId, post);

    const earlier = await this.receipts.answered(door.id, deliveryId);
    if (earlier && earlier.httpStatus < 400) return { ok: true, status: earlier.answer as DoorAnswer['status'] };
    const answer = await this.apply(door, mapping);
    await this.receipts.record(
      door.id,
      deliveryId,
      mapping.type,
      answer instanceof Refusal
        ? { answer: answer.code, httpStatus: answer.status }
        : { answer: answer.status, httpStatus: 200 },
    );
    if (answer instanceof Refusal) throw answer;
    return answer;
  }

  private keyOf(door: DoorRow): VerifierKey {
    if (door.kind === 'auth_b') return { keys: this.jwks.keysOf(door.domain ?? '') };
    return { secret: openSecret(this.config.appSecret, door.secret_sealed ?? '') };
  }

  private map(door: DoorRow, verified: Verified, deliveryId: string, post: InboundPost): DoorMapping {
    switch (door.kind) {
      case 'payment':
        return paymentItems(verified.payload);
      case 'auth_a':
        return authAItems(verified.payload, deliveryId);
      case 'auth_b':
        return authBItems(verified.payload, deliveryId);
      case 'hosting':
        return hostingItems(headerValue(post.headers, 'x-github-event') ?? 'unknown', verified.payload, deliveryId, {
          stars: door.options?.stars === true,
        });
    }
  }

  /** Every item through the events ingest, as one batch; the first refusal is the answer. */
  private async apply(door: DoorRow, mapping: DoorMapping): Promise<DoorAnswer | Refusal> {
    if (mapping.items.length === 0) return { ok: true, status: 'ignored' };
    const workspace = await this.workspaces.get(door.workspace_id);
    const results = await this.ingest.ingest(workspace, mapping.items, { publicDoor: false });
    return results.find((r): r is Refusal => r instanceof Refusal) ?? { ok: true, status: 'recorded' };
  }
}
