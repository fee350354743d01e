import { Module, OnModuleInit } from '@nestjs/common';
import { PersonDataParticipants } from '@app/platform';
import { PeopleDataParticipant } from './erasure/people-data.participant';
import { PersonDataService } from './erasure/person-data.service';
import { SuppressionList } from './erasure/suppression-list';
import { MergeParticipants } from './merge/merge-participants';
import { PeopleReadRepository } from './people-read.repository';
import { PeopleRepository } from './people.repository';
import { PeopleQueryService } from './people-query.service';
import { ListsService } from './lists.service';
import { SubscriptionsRepository } from './subscriptions.repository';
import { ListsReadRepository } from './lists-read.repository';
import { ConfirmationsRepository } from './confirmations.repository';
import { PeopleTallyRepository } from './people-tally.repository';

@Module({
  providers: [
    PeopleRepository,
    PeopleReadRepository,
    MergeParticipants,
    PeopleQueryService,
    ListsService,
    ListsReadRepository,
    SubscriptionsRepository,
    ConfirmationsRepository,
    SuppressionList,
    PersonDataService,
    PeopleDataParticipant,
    PeopleTallyRepository,
  ],
  exports: [
    PeopleRepository,
    PeopleReadRepository,
    MergeParticipants,
    PeopleQueryService,
    ListsService,
    SubscriptionsRepository,
    ConfirmationsRepository,
    SuppressionList,
    PersonDataService,
    PeopleTallyRepository,
  ],
})
export class PeopleModule implements OnModuleInit {
  constructor(
    private readonly personData: PersonDataParticipants,
    private readonly people: PeopleDataParticipant,
    private readonly merges: MergeParticipants,
    private readonly subscriptions: SubscriptionsRepository,
  ) {}

  onModuleInit(): void {
    this.personData.register(this.people);
    this.merges.register(this.subscriptions);
  }
}
