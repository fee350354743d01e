// docs/rest.md#third-party-doors: connecting a third-party door answers its address; the signing secret
// is stored sealed under APP_SECRET, the path token only as its SHA-256 hash. The token is derived
// from the door's id under APP_SECRET, so owners and admins can be shown the address again.
import { Inject, Injectable } from '@nestjs/common';
import { createHash, createHmac } from 'node:crypto';
import { AppConfig, CONFIG, newId, Refusal } from '@app/platform';
import { DoorReceiptsRepository, ReceiptRow } from '@app/edge';
import { sealSecret } from '@app/webhooks';
import { ConnectDoorInput, parseConnectInput } from './domain';
import { DoorConnectionsRepository, DoorRow } from './door-connections.repository';
import { JwksCache } from './jwks-cache';

/** 32 letters and digits, as a random token had: about 190 bits. */
const TOKEN_LENGTH = 32;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const hashDoorToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * The door's path token: its id's HMAC under APP_SECRET in base62
 * (bytes of 248 and over skipped, as randomBase62 does).
 */
function doorToken(appSecret: string, doorId: string): string {
  let token = '';
  for (let round = 0; token.length < TOKEN_LENGTH; round++) {
    const digest = createHmac('sha512', appSecret).update(`door-address:${round}:${doorId}`).digest();
    for (const byte of digest) if (byte < 248 && token.length < TOKEN_LENGTH) token += BASE62[byte % 62];
  }
  return token;
}

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
    const id = newId('door');
    const token = doorToken(this.config.appSecret, id);
    const door = await this.connections.insert({
      workspace_id: workspaceId,
      id,
      kind: settings.kind,
      token_hash: hashDoorToken(token),
      secret_sealed: settings.secret ? sealSecret(this.config.appSecret, settings.secret) : null,
      domain: settings.domain,
      options: settings.kind === 'hosting' ? { stars: settings.stars } : {},
    });
    return { door, address: this.addressOf(door.kind, token) };
  }

  /** The door's address again; a door whose token was made at random (connected before) cannot be. */
  async address(workspaceId: string, id: string): Promise<string> {
    const door = await this.connections.withTokenHash(workspaceId, id);
    if (!door) throw new Refusal('not_found', 'No door of this workspace has that id: list them with doors.');
    const token = doorToken(this.config.appSecret, id);
    if (hashDoorToken(token) !== door.token_hash)
      throw new Refusal(
        'conflict',
        'This door was connected before addresses could be shown again: ' +
          'connect a new one, paste its address, then disconnect this one.',
      );
    return this.addressOf(door.kind, token);
  }

  private addressOf(kind: string, token: string): string {
    return `${this.config.baseUrl}/api/webhooks/${kind}/${token}`;
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
