import { Module } from '@nestjs/common';
import { IntegrationsModule } from './integrations.module';
import { DoorsResolver } from './graphql/doors.resolver';
import { DoorsController } from './http/doors.controller';

/** The api's side of the third-party doors: their addresses and GraphQL. */
@Module({
  imports: [IntegrationsModule],
  controllers: [DoorsController],
  providers: [DoorsResolver],
})
export class IntegrationsApiModule {}
