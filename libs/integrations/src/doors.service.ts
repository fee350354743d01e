// docs/rest.md#third-party-doors: connecting a third-party door answers its address once; the signing secret
// is stored sealed under APP_SECRET, the path token only as its SHA-256 hash.
import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppConfig, CONFIG, newId, randomBase62, Refusal } from '@app/platform';
import { DoorReceiptsRepository, ReceiptRow } from '@app/edge';
import { sealSecret } from '@app/webhooks';
import { ConnectDoorInput, parseConnectInput } from './domain';
import { DoorConnectionsRepository, DoorRow } from './door-connections.repository';
import { JwksCache } from './jwks-cache';

const TOKEN_LENGTH = 32;

export const hashDoorToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

@Injectable()
export class DoorsService {
  constructor(
    private readonly connections: DoorConnectionsRepository,
    private readonly receipts: DoorReceiptsRepository,
    private readonly jwks: JwksCache,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  async connect(workspaceId: string, input: ConnectDoorInput): Promise<{ door: DoorRow; address: string }> {
    const settings = parseConnectInput(input, { allowPrivate: this.config.allowPrivateTargets });
    if (settings instanceof Refusal) throw settings;
    const token = randomBase62(TOKEN_LENGTH);
    const door = await this.connections.insert({
      workspace_id: workspaceId,
      id: newId('door'),
      kind: settings.kind,
      token_hash: hashDoorToken(token),
      secret_sealed: settings.secret ? sealSecret(this.config.appSecret, settings.secret) : null,
      domain: settings.domain,
      options: settings.kind === 'hosting' ? { stars: settings.stars } : {},
    });
    return { door, address: `${this.config.baseUrl}/api/webhooks/${door.kind}/${token}` };
  }

  list(workspaceId: string): Promise<DoorRow[]> {
    return this.connections.list(workspaceId);
  }

  /** The address answers 404 from now on; the door's receipts go with it. */
  async disconnect(workspaceId: string, id: string): Promise<void> {
    const door = (await this.connections.list(workspaceId)).find((d) => d.id === id);
    const gone = await this.connections.transaction(async (m) => {
      if (!(await this.connections.delete(m, workspaceId, id))) return false;
      await this.receipts.deleteOf(m, id);
      return true;
    });
    if (!gone) throw new Refusal('not_found', 'No door of this workspace has that id: list them with doors.');
    if (door?.domain) this.jwks.forget(door.domain);
  }

  receiptsOf(doorIds: readonly string[], limit: number): Promise<ReceiptRow[]> {
    return this.receipts.latestOf(doorIds, limit);
  }
}
