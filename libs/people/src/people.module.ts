import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MergeParticipants } from './merge/merge-participants';
import { PeopleReadRepository } from './people-read.repository';
import { PeopleRepository } from './people.repository';
import { IdentityEntity, ListEntity, PersonEntity, SubscriptionEntity } from './person.entity';

@Module({
  imports: [TypeOrmModule.forFeature([PersonEntity, IdentityEntity, ListEntity, SubscriptionEntity])],
  providers: [PeopleRepository, PeopleReadRepository, MergeParticipants],
  exports: [PeopleRepository, PeopleReadRepository, MergeParticipants],
})
export class PeopleModule {}
