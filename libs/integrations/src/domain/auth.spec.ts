import {
  clerkSessionCreated,
  clerkUserCreated,
  clerkUserDeleted,
  kindeEvent,
  kindeUser,
} from '../../../../test/support/provider-events';
import { authAItems } from './auth-a';
import { authBItems } from './auth-b';

describe('authAItems: Clerk', () => {
  it('user.created -> identify with the name, then signup, named by the primary email and the user_ id', () => {
    const payload = clerkUserCreated({ id: 'user_1', email: 'Ada@Example.com', first: 'Ada', last: 'Lovelace' });
    const { type, items } = authAItems(payload, 'msg_1');
    expect(type).toBe('user.created');
    expect(items).toEqual([
      { type: 'identify', email: 'Ada@Example.com', account_id: 'user_1', name: 'Ada Lovelace' },
      {
        type: 'signup',
        email: 'Ada@Example.com',
        account_id: 'user_1',
        occurred_at: new Date(payload.data.created_at).toISOString(),
        idempotency_key: 'auth_a:msg_1:signup',
      },
    ]);
  });
  it('session.created -> sign_in by the user_ id', () => {
    expect(authAItems(clerkSessionCreated('user_1'), 'msg_2').items).toEqual([
      expect.objectContaining({ type: 'sign_in', account_id: 'user_1', idempotency_key: 'auth_a:msg_2:sign_in' }),
    ]);
  });
  it('user.deleted -> account_deleted by the user_ id', () => {
    expect(authAItems(clerkUserDeleted('user_1'), 'msg_3').items).toEqual([
      expect.objectContaining({ type: 'account_deleted', account_id: 'user_1' }),
    ]);
  });
  it.each(['user.updated', 'session.ended', 'organization.created'])('%s is ignored', (type) => {
    expect(authAItems({ ...clerkUserDeleted('user_1'), type }, 'm')).toEqual({ type, items: [] });
  });
});

describe('authBItems: Kinde', () => {
  it('user.created -> identify with the name, then signup, named by email and the kp_ id', () => {
    const claims = kindeEvent(
      'user.created',
      kindeUser({ id: 'kp_1', email: 'dan@example.com', first: 'Daniel', last: 'Rivers' }),
    );
    expect(authBItems(claims, claims.event_id).items).toEqual([
      { type: 'identify', email: 'dan@example.com', account_id: 'kp_1', name: 'Daniel Rivers' },
      {
        type: 'signup',
        email: 'dan@example.com',
        account_id: 'kp_1',
        occurred_at: claims.timestamp,
        idempotency_key: `auth_b:${claims.event_id}:signup`,
      },
    ]);
  });
  it.each([
    ['user.authenticated', 'sign_in'],
    ['user.deleted', 'account_deleted'],
  ])('%s -> %s by the kp_ id', (type, event) => {
    const claims = kindeEvent(type, { id: 'kp_1' });
    expect(authBItems(claims, 'e').items).toEqual([expect.objectContaining({ type: event, account_id: 'kp_1' })]);
  });
  it('reads a timestamp with an offset and microseconds', () => {
    const claims = {
      ...kindeEvent('user.authenticated', { id: 'kp_1' }),
      timestamp: '2024-05-01T17:41:45.592145+10:00',
    };
    expect(authBItems(claims, 'e').items[0].occurred_at).toBe('2024-05-01T07:41:45.592Z');
  });
  it.each(['user.updated', 'organization.created', 'user.authentication_failed'])('%s is ignored', (type) => {
    expect(authBItems(kindeEvent(type, { id: 'kp_1' }), 'e')).toEqual({ type, items: [] });
  });
});
