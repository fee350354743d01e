// The limits of what the events endpoint and the website doors take (docs/rest.md#events).
import { MAX_BATCH_ITEMS } from '@app/wire';
import { MAX_EMAIL_LENGTH, MAX_ID_LENGTH, SOURCE_TEXT_MAX } from '@app/people';

/** Every limit of posted input, in one place. */
export const LIMITS = {
  batchItems: MAX_BATCH_ITEMS,
  customName: { min: 2, max: 40 },
  email: MAX_EMAIL_LENGTH,
  identityId: MAX_ID_LENGTH,
  sourceText: SOURCE_TEXT_MAX,
  detail: 500,
  idempotencyKey: 200,
  name: 200,
  fields: 100,
  fieldKey: 64,
  fieldValue: 1_000,
  list: 200,
  consentText: 5_000,
  supportMessage: 10_000,
  shortText: 200,
} as const;
