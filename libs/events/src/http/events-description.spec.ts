// GET /api/v1/events describes exactly the fields each item takes (docs/rest.md#events).
import { ITEM_FIELDS } from '../domain/item-fields';
import { describeEventsEndpoint } from './events-description';

it('lists, for each kind of item, the fields the endpoint takes and no other', () => {
  const { fields } = describeEventsEndpoint();
  for (const [kind, taken] of Object.entries(ITEM_FIELDS))
    expect({ kind, fields: Object.keys(fields[kind as keyof typeof fields]).sort() }).toEqual({
      kind,
      fields: [...taken].sort(),
    });
});
