import { Module } from '@nestjs/common';
import { MergeParticipants } from './merge/merge-participants';
import { PeopleReadRepository } from './people-read.repository';
import { PeopleRepository } from './people.repository';

@Module({
  providers: [PeopleRepository, PeopleReadRepository, MergeParticipants],
  exports: [PeopleRepository, PeopleReadRepository, MergeParticipants],
})
export class PeopleModule {}
