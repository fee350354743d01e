// Example events shaped like each provider's documented examples (Stripe's API reference event
// objects, Clerk's and Kinde's webhook docs, GitHub's webhook payload docs), with the fields a test
// varies as parameters. Used by the provider files' unit specs and by test/doors.e2e-spec.ts.

const now = () => Math.floor(Date.now() / 1000);
let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

// --- Stripe ------------------------------------------------------------------------------------

export function stripeEvent(type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    id: unique('evt_1Nf'),
    object: 'event',
    api_version: '2024-06-20',
    created: now(),
    data: { object, ...extra },
    livemode: false,
    pending_webhooks: 1,
    request: { id: unique('req_'), idempotency_key: null },
    type,
  };
}

export function stripeCheckoutSession(o: {
  email?: string | null;
  customer?: string | null;
  amount?: number;
  paid?: boolean;
  currency?: string;
  name?: string;
}) {
  return {
    id: unique('cs_test_a1'),
    object: 'checkout.session',
    amount_subtotal: o.amount ?? 2000,
    amount_total: o.amount ?? 2000,
    currency: o.currency ?? 'usd',
    customer: o.customer === undefined ? 'cus_NffrFeUfNV2Hib' : o.customer,
    customer_creation: 'if_required',
    customer_details:
      o.email === null
        ? null
        : {
            address: { country: 'US', postal_code: '94105' },
            email: o.email ?? 'jenny.rosen@example.com',
            name: o.name ?? 'Jenny Rosen',
            phone: null,
            tax_exempt: 'none',
            tax_ids: [],
          },
    customer_email: null,
    livemode: false,
    metadata: {},
    mode: 'payment',
    payment_intent: unique('pi_'),
    payment_status: o.paid === false ? 'unpaid' : 'paid',
    status: o.paid === false ? 'open' : 'complete',
    success_url: 'https://example.com/success',
    url: null,
  };
}

export function stripeSubscription(o: { customer: string; status?: string; amount?: number }) {
  return {
    id: unique('sub_1MowQV'),
    object: 'subscription',
    billing_cycle_anchor: now(),
    cancel_at_period_end: false,
    collection_method: 'charge_automatically',
    created: now(),
    currency: 'usd',
    customer: o.customer,
    items: {
      object: 'list',
      data: [
        {
          id: unique('si_'),
          object: 'subscription_item',
          price: {
            id: 'price_1MowQULkdIwHu7ixraBm864M',
            object: 'price',
            active: true,
            currency: 'usd',
            nickname: 'Pro monthly',
            lookup_key: null,
            recurring: { interval: 'month', interval_count: 1 },
            unit_amount: o.amount ?? 1000,
          },
          quantity: 1,
        },
      ],
    },
    livemode: false,
    status: o.status ?? 'active',
    trial_end: o.status === 'trialing' ? now() + 14 * 86400 : null,
    trial_start: o.status === 'trialing' ? now() : null,
  };
}

export function stripeInvoice(o: { customer: string; email?: string; amount?: number; reason?: string }) {
  return {
    id: unique('in_1MtHbE'),
    object: 'invoice',
    account_country: 'US',
    amount_due: o.amount ?? 1000,
    amount_paid: o.amount ?? 1000,
    amount_remaining: 0,
    billing_reason: o.reason ?? 'subscription_cycle',
    collection_method: 'charge_automatically',
    currency: 'usd',
    customer: o.customer,
    customer_email: o.email ?? null,
    customer_name: null,
    paid: true,
    status: 'paid',
    subscription: unique('sub_'),
  };
}

export function stripeCharge(o: { customer: string; email?: string; amount?: number; refunded?: number }) {
  return {
    id: unique('ch_3MmlLr'),
    object: 'charge',
    amount: o.amount ?? 2000,
    amount_captured: o.amount ?? 2000,
    amount_refunded: o.refunded ?? o.amount ?? 2000,
    billing_details: { address: null, email: o.email ?? null, name: null, phone: null },
    captured: true,
    currency: 'usd',
    customer: o.customer,
    paid: true,
    receipt_email: null,
    refunded: (o.refunded ?? o.amount ?? 2000) === (o.amount ?? 2000),
    status: 'succeeded',
  };
}

// --- Clerk (Svix, Standard Webhooks) ---------------------------------------------------------------

export function clerkUserCreated(o: { id?: string; email?: string; first?: string; last?: string }) {
  const emailId = unique('idn_29w83yL7CwVlJXylYLxcslromF1');
  return {
    data: {
      birthday: '',
      created_at: Date.now(),
      email_addresses: [
        {
          email_address: o.email ?? 'example@example.org',
          id: emailId,
          linked_to: [],
          object: 'email_address',
          verification: { status: 'verified', strategy: 'ticket' },
        },
      ],
      external_accounts: [],
      external_id: null,
      first_name: o.first ?? 'Example',
      gender: '',
      id: o.id ?? unique('user_29w83sxmDNGwOuEthce5gg56FcC'),
      image_url: 'https://img.clerk.com/xxxxxx',
      last_name: o.last ?? 'Example',
      last_sign_in_at: null,
      object: 'user',
      password_enabled: true,
      phone_numbers: [],
      primary_email_address_id: emailId,
      primary_phone_number_id: null,
      primary_web3_wallet_id: null,
      private_metadata: {},
      public_metadata: {},
      two_factor_enabled: false,
      unsafe_metadata: {},
      updated_at: Date.now(),
      username: null,
      web3_wallets: [],
    },
    event_attributes: { http_request: { client_ip: '0.0.0.0', user_agent: 'Mozilla/5.0' } },
    instance_id: 'ins_2c4PXvwP9wYCj5ygh2LwrFeSrWV',
    object: 'event',
    timestamp: Date.now(),
    type: 'user.created',
  };
}

export function clerkSessionCreated(userId: string) {
  return {
    data: {
      abandon_at: Date.now() + 30 * 86400_000,
      client_id: unique('client_2Sdf'),
      created_at: Date.now(),
      expire_at: Date.now() + 7 * 86400_000,
      id: unique('sess_2Sdf'),
      last_active_at: Date.now(),
      object: 'session',
      status: 'active',
      updated_at: Date.now(),
      user_id: userId,
    },
    instance_id: 'ins_2c4PXvwP9wYCj5ygh2LwrFeSrWV',
    object: 'event',
    timestamp: Date.now(),
    type: 'session.created',
  };
}

export function clerkUserDeleted(userId: string) {
  return {
    data: { deleted: true, id: userId, object: 'user' },
    instance_id: 'ins_2c4PXvwP9wYCj5ygh2LwrFeSrWV',
    object: 'event',
    timestamp: Date.now(),
    type: 'user.deleted',
  };
}

// --- Kinde (the claims of the signed token) ----------------------------------------------------------

export function kindeEvent(type: string, user: Record<string, unknown>) {
  return {
    data: { user },
    event_id: unique('event_018f331a3178f7fef284b95fe677'),
    source: 'user',
    timestamp: new Date().toISOString(),
    type,
  };
}

export function kindeUser(o: { id?: string; email?: string; first?: string; last?: string }) {
  return {
    email: o.email ?? 'daniel@example.com',
    first_name: o.first ?? 'Daniel',
    id: o.id ?? unique('kp_65b28d71bba14fa380d56d2d8d3503da'),
    is_password_reset_requested: false,
    is_suspended: false,
    last_name: o.last ?? 'Rivers',
    organizations: [{ code: 'org_590d7f1a86a', permissions: null, roles: null }],
    phone: null,
    username: 'daniel',
  };
}

// --- GitHub ---------------------------------------------------------------------------------------

export const githubUser = (login: string, id: number, extra: Record<string, unknown> = {}) => ({
  login,
  id,
  node_id: 'MDQ6VXNlcjI=',
  avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
  html_url: `https://github.com/${login}`,
  type: 'User',
  site_admin: false,
  ...extra,
});

export function githubSponsorship(
  action: string,
  o: { login?: string; id?: number; cents?: number; oneTime?: boolean; name?: string },
) {
  const tier = (cents: number) => ({
    node_id: 'MDEyOlNwb25zb3JzVGllcjE=',
    created_at: '2019-12-20T19:17:05Z',
    description: 'foo',
    monthly_price_in_cents: cents,
    monthly_price_in_dollars: cents / 100,
    name: `$${cents / 100} a month`,
    is_one_time: o.oneTime ?? false,
    is_custom_amount: false,
  });
  return {
    action,
    sponsorship: {
      node_id: 'MDExOlNwb25zb3JzaGlwMQ==',
      created_at: '2019-12-20T19:24:46+00:00',
      sponsorable: githubUser('octocat', 583231),
      sponsor: githubUser(o.login ?? 'monalisa', o.id ?? 2, o.name ? { name: o.name } : {}),
      privacy_level: 'public',
      tier: tier(o.cents ?? 500),
    },
    ...(action === 'tier_changed' ? { changes: { tier: { from: tier(500) } } } : {}),
    sender: githubUser(o.login ?? 'monalisa', o.id ?? 2),
  };
}

export function githubMarketplacePurchase(
  action: string,
  o: {
    login?: string;
    id?: number;
    email?: string;
    trial?: boolean;
    monthlyCents?: number;
    cycle?: 'monthly' | 'yearly';
    units?: number;
    perUnit?: boolean;
  },
) {
  return {
    action,
    effective_date: '2017-10-25T00:00:00+00:00',
    sender: githubUser(o.login ?? 'octocat', 2, { email: 'octocat@github.com' }),
    marketplace_purchase: {
      account: {
        type: 'Organization',
        id: o.id ?? 18404719,
        node_id: 'MDEyOk9yZ2FuaXphdGlvbjE4NDA0NzE5',
        login: o.login ?? 'octocat',
        organization_billing_email: o.email ?? null,
      },
      billing_cycle: o.cycle ?? 'monthly',
      unit_count: o.units ?? 1,
      on_free_trial: o.trial ?? false,
      free_trial_ends_on: null,
      next_billing_date: '2017-11-05T00:00:00+00:00',
      plan: {
        id: 435,
        name: 'Basic Plan',
        description: 'Basic Plan',
        monthly_price_in_cents: o.monthlyCents ?? 1000,
        yearly_price_in_cents: (o.monthlyCents ?? 1000) * 10,
        price_model: o.perUnit ? 'PER_UNIT' : 'FLAT_RATE',
        has_free_trial: true,
        unit_name: o.perUnit ? 'seat' : null,
        bullets: ['Is Basic', 'Because Basic '],
      },
    },
  };
}

export function githubStar(o: { login?: string; id?: number }) {
  return {
    action: 'created',
    starred_at: '2019-05-15T15:20:40Z',
    repository: {
      id: 186853002,
      node_id: 'MDEwOlJlcG9zaXRvcnkxODY4NTMwMDI=',
      name: 'Hello-World',
      full_name: 'Codertocat/Hello-World',
      private: false,
      owner: githubUser('Codertocat', 21031067),
    },
    sender: githubUser(o.login ?? 'Codertocat', o.id ?? 21031067),
  };
}

export const githubPing = () => ({
  zen: 'Design for failure.',
  hook_id: 109948940,
  hook: {
    type: 'Repository',
    id: 109948940,
    name: 'web',
    active: true,
    events: ['sponsorship', 'star'],
    config: { content_type: 'json', insecure_ssl: '0', url: 'https://smee.io/****************' },
  },
  repository: { id: 186853261, full_name: 'Octocoders/Hello-World' },
  sender: githubUser('Octocoders', 38302899),
});
