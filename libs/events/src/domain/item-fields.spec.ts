// The fields each item takes, and the refusal of one it does not (docs/decisions.md#unknown-fields-are-refused).
import { Refusal } from '@app/platform';
import {
  editDistance,
  ITEM_FIELDS,
  nearestName,
  parseEventsPost,
  unknownItemField,
  unknownPublicField,
} from './item-fields';

describe('editDistance: insertions, deletions, substitutions and a swap of neighbours each count one', () => {
  it.each([
    ['', '', 0],
    ['email', 'email', 0],
    ['', 'abc', 3],
    ['ocurred_at', 'occurred_at', 1],
    ['emial', 'email', 1],
    ['emal', 'email', 1],
    ['emaik', 'email', 1],
    ['kitten', 'sitting', 3],
    ['list', 'lsit', 1],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('nearestName: the known name meant, or none', () => {
  it.each([
    ['ocurred_at', 'occurred_at'],
    ['occurredAt', 'occurred_at'],
    ['Occurred-At', 'occurred_at'],
    ['idempotencyKey', 'idempotency_key'],
    ['emial', 'email'],
    ['anonId', 'anon_id'],
    ['soruce', 'source'],
  ])('%s means %s', (name, meant) => expect(nearestName(name, ITEM_FIELDS.event)).toBe(meant));

  it('a name far longer than any known one is near nothing', () =>
    expect(nearestName(`occurred_at${'x'.repeat(100)}`, ITEM_FIELDS.event)).toBeUndefined());

  it.each(['plan', 'props', 'userId', 'x', 'timestamp'])('%s is near nothing an event takes', (name) =>
    expect(nearestName(name, ITEM_FIELDS.event)).toBeUndefined(),
  );
});

describe('unknownItemField', () => {
  it('refuses a field the kind does not take, naming it and the one meant', () => {
    const refusal = unknownItemField({ type: 'signup', email: 'a@b.co', ocurred_at: '2024-01-01' }, 'event');
    expect(refusal).toBeInstanceOf(Refusal);
    expect(refusal!.code).toBe('invalid_field');
    expect(refusal!.message).toBe('"ocurred_at" is not a field an event takes: did you mean occurred_at?');
    expect(refusal!.toBody()).toMatchObject({ field: 'ocurred_at', nearest: 'occurred_at' });
  });

  it('lists what the kind takes when nothing known is near, and where own facts go', () => {
    const refusal = unknownItemField({ type: 'identify', email: 'a@b.co', plan: 'pro' }, 'identify')!;
    expect(refusal.message).toBe(
      '"plan" is not a field an identify takes: send only type, email, anon_id, account_id, name, fields and ' +
        'source, and put fields of your own in fields.',
    );
    expect(refusal.toBody()).not.toHaveProperty('nearest');
  });

  it('takes every field of each kind', () => {
    for (const [kind, fields] of Object.entries(ITEM_FIELDS)) {
      const item = Object.fromEntries(fields.map((field) => [field, null]));
      expect({ kind, refused: unknownItemField(item, kind as keyof typeof ITEM_FIELDS) }).toEqual({
        kind,
        refused: undefined,
      });
    }
  });

  it('repeats at most 200 characters of the name posted', () => {
    const refusal = unknownItemField({ type: 'signup', ['k'.repeat(5000)]: 1 }, 'event')!;
    expect((refusal.toBody().field as string).length).toBe(200);
    expect(refusal.message.length).toBeLessThan(400);
  });

  it("leaves expires_at on an action to the action's own sentence", () => {
    expect(unknownItemField({ type: 'identify', email: 'a@b.co', expires_at: 'x' }, 'identify')).toBeUndefined();
  });

  it('subscribe takes no name and no account_id', () => {
    expect(unknownItemField({ type: 'subscribe', name: 'Ada' }, 'subscribe')?.toBody()).toMatchObject({
      field: 'name',
    });
    expect(unknownItemField({ type: 'subscribe', account_id: 'u1' }, 'subscribe')?.toBody()).toMatchObject({
      field: 'account_id',
    });
  });
});

describe('parseEventsPost', () => {
  it('refuses a single item whole', () => {
    expect(parseEventsPost({ type: 'signup', email: 'a@b.co', valeu: 1 })).toBeInstanceOf(Refusal);
  });

  it("refuses a batch's item in its place and keeps the others", () => {
    const post = parseEventsPost({
      events: [
        { type: 'signup', email: 'a@b.co' },
        { type: 'support', mesage: 'x' },
      ],
    });
    if (post instanceof Refusal || !post.batch) throw new Error('expected a batch');
    expect(post.items).toHaveLength(2);
    expect(post.fieldRefusals[0]).toBeUndefined();
    expect(post.fieldRefusals[1]?.toBody()).toMatchObject({ field: 'mesage', nearest: 'message' });
  });

  it('refuses a batch with a field beside events, and answers what parseBody answers otherwise', () => {
    expect((parseEventsPost({ events: [{}], batch: [] }) as Refusal).toBody()).toMatchObject({ field: 'batch' });
    expect((parseEventsPost({ events: [] }) as Refusal).code).toBe('invalid_json');
    expect((parseEventsPost('x') as Refusal).code).toBe('invalid_json');
  });
});

describe('unknownPublicField', () => {
  it('takes the honeypot fields and the action as type', () => {
    expect(unknownPublicField({ email: 'a@b.co', hp: '', website: null, type: 'identify' }, 'identify')).toBe(
      undefined,
    );
  });

  it('leaves a filled honeypot to be answered as usual, whatever else it holds', () => {
    expect(unknownPublicField({ email: 'a@b.co', hp: 'x', anything: 1 }, 'subscribe')).toBeUndefined();
  });

  it('refuses a type that is not the action, and a field the action does not take', () => {
    expect(unknownPublicField({ type: 'subscribe' }, 'identify')?.toBody()).toMatchObject({ field: 'type' });
    expect(unknownPublicField({ type: 'pageview', anon_id: 'a', pth: '/' }, 'event')?.toBody()).toMatchObject({
      field: 'pth',
    });
  });
});
