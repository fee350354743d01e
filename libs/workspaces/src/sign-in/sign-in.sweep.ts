// Retention of sign-in rows: sessions ended or run out, links and codes run out, tokens run
// out and revoked connections are deleted a month after they stopped letting anyone in.
import { Injectable, OnModuleInit } from '@nestjs/common';
import { DAY_MS, retainedSince, SweepRegistry } from '@app/platform';
import { ConnectionsRepository } from './connections.repository';
import { SessionsRepository } from './sessions.repository';

const SIGN_IN_KEPT_MS = 30 * DAY_MS;

@Injectable()
export class SignInSweep implements OnModuleInit {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly connections: ConnectionsRepository,
    private readonly sweeps: SweepRegistry,
  ) {}

  onModuleInit(): void {
    this.sweeps.register('sign-in', async () => {
      const before = retainedSince(SIGN_IN_KEPT_MS);
      return (await this.sessions.deleteBefore(before)) + (await this.connections.deleteBefore(before));
    });
  }
}
