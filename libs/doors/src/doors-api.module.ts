import { Module } from '@nestjs/common';
import { DoorsModule } from './doors.module';
import { DoorsResolver } from './graphql/doors.resolver';
import { DoorsController } from './http/doors.controller';

/** The api's side of the third-party doors: their addresses and GraphQL. */
@Module({
  imports: [DoorsModule],
  controllers: [DoorsController],
  providers: [DoorsResolver],
})
export class DoorsApiModule {}
