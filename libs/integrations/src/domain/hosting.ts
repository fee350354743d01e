// docs/rest.md#third-party-doors, the hosting row (GitHub): a verified delivery (X-GitHub-Event names its kind)
// -> items. A GitHub account is named by account_id github:{numeric id}, which survives a renamed
// login, and by its email when GitHub shows one. X-GitHub-Delivery is the idempotency key.
import { wholeUnits } from './money';
import {
  DoorItem,
  DoorMapping,
  eventItem,
  identifyItem,
  ignored,
  instant,
  isObject,
  Obj,
  objectAt,
  PersonKeys,
  personKeys,
  text,
} from './door-items';

export interface HostingOptions {
  /** The door was connected with stars: a star becomes github_star (it is not consent). */
  stars: boolean;
}

function accountOf(user: Obj, email?: unknown): PersonKeys | null {
  const id = typeof user.id === 'number' || typeof user.id === 'string' ? `github:${user.id}` : undefined;
  return personKeys(email ?? user.email, id);
}

/**
 * sponsorship: created -> purchase + subscription_started (a one-time tier: purchase only); tier_changed ->
 * subscription_renewed; cancelled -> subscription_cancelled.
 */
function sponsorship(payload: Obj, key: string): DoorItem[] {
  const s = objectAt(payload, 'sponsorship');
  const sponsor = objectAt(s, 'sponsor');
  const person = accountOf(sponsor);
  if (!person) return [];
  const tier = objectAt(s, 'tier');
  const value = wholeUnits(tier.monthly_price_in_cents, 'usd');
  const properties = { login: text(sponsor.login), tier: text(tier.name), one_time: tier.is_one_time === true };
  const at = { key, occurredAt: instant(s.created_at) };
  switch (payload.action) {
    case 'created':
      return [
        ...identifyItem(person, text(sponsor.name) ?? text(sponsor.login)),
        eventItem('purchase', person, at, { value, properties }),
        ...(tier.is_one_time === true ? [] : [eventItem('subscription_started', person, at, { properties })]),
      ];
    case 'tier_changed':
      return [eventItem('subscription_renewed', person, { key }, { value, properties })];
    case 'cancelled':
      return [eventItem('subscription_cancelled', person, { key }, { properties })];
    default:
      return [];
  }
}

/** The plan's price for the cycle bought, times the units for a per-unit plan, in cents. */
function planCents(purchase: Obj): number | undefined {
  const plan = objectAt(purchase, 'plan');
  const cents = purchase.billing_cycle === 'yearly' ? plan.yearly_price_in_cents : plan.monthly_price_in_cents;
  if (typeof cents !== 'number') return undefined;
  const units = plan.price_model === 'PER_UNIT' && typeof purchase.unit_count === 'number' ? purchase.unit_count : 1;
  return cents * units;
}

/** marketplace_purchase, likewise: purchased (a trial: trial_started; a free plan: no purchase), changed, cancelled. */
function marketplacePurchase(payload: Obj, key: string): DoorItem[] {
  const purchase = objectAt(payload, 'marketplace_purchase');
  const account = objectAt(purchase, 'account');
  const person = accountOf(
    account,
    text(account.organization_billing_email) ?? text(objectAt(payload, 'sender').email),
  );
  if (!person) return [];
  const cents = planCents(purchase);
  const value = wholeUnits(cents, 'usd');
  const properties = {
    login: text(account.login),
    plan: text(objectAt(purchase, 'plan').name),
    billing_cycle: text(purchase.billing_cycle),
  };
  const at = { key, occurredAt: instant(payload.effective_date) };
  switch (payload.action) {
    case 'purchased':
      if (purchase.on_free_trial === true) return [eventItem('trial_started', person, at, { properties })];
      return [
        ...(cents ? [eventItem('purchase', person, at, { value, properties })] : []),
        eventItem('subscription_started', person, at, { properties }),
      ];
    case 'changed':
      return [eventItem('subscription_renewed', person, at, { value, properties })];
    case 'cancelled':
      return [eventItem('subscription_cancelled', person, at, { properties })];
    default:
      return [];
  }
}

/** star created -> github_star, only when the door was connected with stars. */
function star(payload: Obj, key: string, options: HostingOptions): DoorItem[] {
  if (!options.stars || payload.action !== 'created') return [];
  const sender = objectAt(payload, 'sender');
  const person = accountOf(sender);
  if (!person) return [];
  const properties = { login: text(sender.login), repository: text(objectAt(payload, 'repository').full_name) };
  return [eventItem('github_star', person, { key, occurredAt: instant(payload.starred_at) }, { properties })];
}

const MAPPERS: Partial<Record<string, (payload: Obj, key: string, options: HostingOptions) => DoorItem[]>> = {
  sponsorship,
  marketplace_purchase: marketplacePurchase,
  star,
};

/** A verified GitHub delivery: its X-GitHub-Event, body and X-GitHub-Delivery -> items (ping and the rest: none). */
export function hostingItems(
  githubEvent: string,
  payload: unknown,
  deliveryId: string,
  options: HostingOptions,
): DoorMapping {
  const action = isObject(payload) ? text(payload.action) : undefined;
  const type = action ? `${githubEvent}.${action}` : githubEvent;
  const mapper = MAPPERS[githubEvent];
  if (!mapper || !isObject(payload)) return ignored(type);
  return { type, items: mapper(payload, `hosting:${deliveryId}`, options) };
}
