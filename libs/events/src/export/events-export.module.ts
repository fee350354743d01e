import { Module } from '@nestjs/common';
import { EventsModule } from '../events.module';
import { EventsExportController } from '../http/events-export.controller';
import { EventsExportRepository } from './events-export.repository';
import { EventsExportService } from './events-export.service';

/** Every event out as a stream (docs/rest.md#every-event-out-as-a-stream): the route and, for the CLI, the service. */
@Module({
  imports: [EventsModule],
  controllers: [EventsExportController],
  providers: [EventsExportRepository, EventsExportService],
  exports: [EventsExportService],
})
export class EventsExportModule {}
