// The migrations of people's tables, oldest first (platform's migrate merges every lib's by timestamp).
import { PeopleSchema1763856000004 } from './1763856000004-people-schema';
import { PeopleFillfactor1765300000001 } from './1765300000001-people-fillfactor';
import { PersonErasure1766200000000 } from './1766200000000-person-erasure';
import { PeopleSearch1766800000000 } from './1766800000000-people-search';
import { IdentitiesPersonCreated1767100000000 } from './1767100000000-identities-person-created';
import { IdentitiesSearchC1767150000000 } from './1767150000000-identities-search-c';
import { SubscriptionWithdrawal1767400000000 } from './1767400000000-subscription-withdrawal';
import { DoubleOptIn1767450000000 } from './1767450000000-double-opt-in';
import { PeopleActivity1767800052731 } from './1767800052731-people-activity';

export const PEOPLE_MIGRATIONS = [
  PeopleSchema1763856000004,
  PeopleFillfactor1765300000001,
  PersonErasure1766200000000,
  PeopleSearch1766800000000,
  IdentitiesPersonCreated1767100000000,
  IdentitiesSearchC1767150000000,
  SubscriptionWithdrawal1767400000000,
  DoubleOptIn1767450000000,
  PeopleActivity1767800052731,
];
