// The API's own words (docs/graphql.md) as people read them on screen: a door's kind names the system
// it stands for (docs/rest.md#third-party-doors spells the paths with neutral words), a role reads as
// a role. A code the console does not know yet shows as answered rather than not at all.

/** Each door kind: the system it stands for, and what it posts. */
export const DOOR_SYSTEMS: Record<string, { name: string; what: string }> = {
  payment: { name: 'Stripe', what: 'payments and subscriptions' },
  auth_a: { name: 'Clerk', what: 'sign-ups and sign-ins' },
  auth_b: { name: 'Kinde', what: 'sign-ups and sign-ins' },
  hosting: { name: 'GitHub', what: 'sponsorships, purchases and stars' },
  email: { name: 'the email provider', what: 'email statuses and replies' },
};

/** "Stripe" for payment, and so on. */
export function doorName(kind: string): string {
  return DOOR_SYSTEMS[kind]?.name ?? kind;
}

const ROLES: Record<string, string> = { owner: 'owner', admin: 'admin', member: 'member, read-only' };

export function roleName(role: string): string {
  return ROLES[role] ?? role;
}
