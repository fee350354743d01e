import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PeopleReadRepository } from './people-read.repository';
import { PeopleRepository } from './people.repository';
import { PeopleQueryService } from './people-query.service';
import { ListsService } from './lists.service';
import { IdentityEntity, ListEntity, PersonEntity, SubscriptionEntity } from './person.entity';

@Module({
  imports: [TypeOrmModule.forFeature([PersonEntity, IdentityEntity, ListEntity, SubscriptionEntity])],
  providers: [PeopleRepository, PeopleReadRepository, PeopleQueryService, ListsService],
  exports: [PeopleRepository, PeopleReadRepository, PeopleQueryService, ListsService],
})
export class PeopleModule {}
