import { Module } from '@nestjs/common';
import { EventsModule } from '@app/events';
import { DoorIntakeService } from './door-intake.service';
import { DoorConnectionsRepository } from './door-connections.repository';
import { DoorsService } from './doors.service';
import { JwksCache } from './jwks-cache';

/** Third-party doors: connections, their key sets, and the intake that feeds the events ingest. */
@Module({
  imports: [EventsModule],
  providers: [DoorConnectionsRepository, DoorsService, DoorIntakeService, JwksCache],
  exports: [DoorConnectionsRepository, DoorsService, DoorIntakeService],
})
export class IntegrationsModule {}
