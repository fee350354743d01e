import { Module } from '@nestjs/common';
import { MergeParticipants } from './merge/merge-participants';
import { PeopleReadRepository } from './people-read.repository';
import { PeopleRepository } from './people.repository';
import { PeopleQueryService } from './people-query.service';
import { ListsService } from './lists.service';

@Module({
  providers: [PeopleRepository, PeopleReadRepository, MergeParticipants, PeopleQueryService, ListsService],
  exports: [PeopleRepository, PeopleReadRepository, MergeParticipants, PeopleQueryService, ListsService],
})
export class PeopleModule {}
