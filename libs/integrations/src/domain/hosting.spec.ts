import {
  githubMarketplacePurchase,
  githubPing,
  githubSponsorship,
  githubStar,
} from '../../../../test/support/provider-events';
import { hostingItems } from './hosting';

const types = (event: string, payload: unknown, stars = false) =>
  hostingItems(event, payload, 'd-1', { stars }).items.map((i) => i.type);

describe('hostingItems: GitHub sponsorships', () => {
  it("created -> the sponsor's name, purchase (monthly tier in dollars) and subscription_started, by github:{id}", () => {
    const { type, items } = hostingItems(
      'sponsorship',
      githubSponsorship('created', { login: 'monalisa', id: 2, cents: 500 }),
      'd-1',
      { stars: false },
    );
    expect(type).toBe('sponsorship.created');
    expect(items).toEqual([
      { type: 'identify', account_id: 'github:2', name: 'monalisa' },
      expect.objectContaining({
        type: 'purchase',
        account_id: 'github:2',
        value: 5,
        idempotency_key: 'hosting:d-1:purchase',
        properties: { login: 'monalisa', tier: '$5 a month', one_time: false },
      }),
      expect.objectContaining({
        type: 'subscription_started',
        account_id: 'github:2',
        idempotency_key: 'hosting:d-1:subscription_started',
      }),
    ]);
  });
  it('a one-time sponsorship is a purchase without a subscription', () => {
    expect(types('sponsorship', githubSponsorship('created', { oneTime: true }))).toEqual(['identify', 'purchase']);
  });
  it('tier_changed -> subscription_renewed at the new tier; cancelled -> subscription_cancelled', () => {
    expect(
      hostingItems('sponsorship', githubSponsorship('tier_changed', { cents: 1500 }), 'd', { stars: false }).items,
    ).toEqual([expect.objectContaining({ type: 'subscription_renewed', value: 15 })]);
    expect(types('sponsorship', githubSponsorship('cancelled', {}))).toEqual(['subscription_cancelled']);
  });
  it.each(['edited', 'pending_cancellation', 'pending_tier_change'])('%s is ignored', (action) => {
    expect(types('sponsorship', githubSponsorship(action, {}))).toEqual([]);
  });
});

describe('hostingItems: GitHub Marketplace purchases, likewise', () => {
  it('purchased -> purchase + subscription_started, named by the billing email and github:{id}', () => {
    const { items } = hostingItems(
      'marketplace_purchase',
      githubMarketplacePurchase('purchased', { id: 7, email: 'billing@acme.test', monthlyCents: 1000 }),
      'd',
      { stars: false },
    );
    expect(items).toEqual([
      expect.objectContaining({ type: 'purchase', account_id: 'github:7', email: 'billing@acme.test', value: 10 }),
      expect.objectContaining({ type: 'subscription_started', account_id: 'github:7' }),
    ]);
  });
  it('a yearly per-unit plan is priced by its yearly price times the units', () => {
    const [purchase] = hostingItems(
      'marketplace_purchase',
      githubMarketplacePurchase('purchased', { monthlyCents: 500, cycle: 'yearly', units: 3, perUnit: true }),
      'd',
      { stars: false },
    ).items;
    expect(purchase.value).toBe(150);
  });
  it('purchased on a free trial -> trial_started; a free plan -> subscription_started only', () => {
    expect(types('marketplace_purchase', githubMarketplacePurchase('purchased', { trial: true }))).toEqual([
      'trial_started',
    ]);
    expect(types('marketplace_purchase', githubMarketplacePurchase('purchased', { monthlyCents: 0 }))).toEqual([
      'subscription_started',
    ]);
  });
  it('changed -> subscription_renewed; cancelled -> subscription_cancelled; pending_change ignored', () => {
    expect(types('marketplace_purchase', githubMarketplacePurchase('changed', {}))).toEqual(['subscription_renewed']);
    expect(types('marketplace_purchase', githubMarketplacePurchase('cancelled', {}))).toEqual([
      'subscription_cancelled',
    ]);
    expect(types('marketplace_purchase', githubMarketplacePurchase('pending_change', {}))).toEqual([]);
  });
});

describe('hostingItems: stars and the rest', () => {
  it('star created -> github_star only when the door was connected with stars', () => {
    expect(hostingItems('star', githubStar({ id: 9, login: 'octo' }), 'd', { stars: true }).items).toEqual([
      expect.objectContaining({
        type: 'github_star',
        account_id: 'github:9',
        properties: { login: 'octo', repository: 'Codertocat/Hello-World' },
      }),
    ]);
    expect(types('star', githubStar({}), false)).toEqual([]);
    expect(types('star', { ...githubStar({}), action: 'deleted' }, true)).toEqual([]);
  });
  it('ping and other events are ignored, typed event.action', () => {
    expect(hostingItems('ping', githubPing(), 'd', { stars: true })).toEqual({ type: 'ping', items: [] });
    expect(hostingItems('issues', { action: 'opened' }, 'd', { stars: true })).toEqual({
      type: 'issues.opened',
      items: [],
    });
  });
});
