// The stage ladder of docs/rest.md#events, decided when an event arrives and never recomputed; and
// who counts as engaged.

export const STAGES = ['downloader', 'activated', 'account', 'trial', 'purchaser', 'repeat', 'churned'] as const;
export type Stage = (typeof STAGES)[number];

/** Display names; the wire and the database carry the lower-case names. */
export const STAGE_NAMES: Record<Stage, string> = {
  downloader: 'Downloader',
  activated: 'Activated',
  account: 'Account',
  trial: 'Trial',
  purchaser: 'Purchaser',
  repeat: 'Repeat',
  churned: 'Churned',
};

export interface StageSettings {
  /** false for a web-app workspace: download then moves nobody. */
  downloaderStage: boolean;
  /** The optional Trial stage, switched on by the workspace. */
  trialStage: boolean;
  /** Built-in or custom names that also count as activated. */
  activationEvents: readonly string[];
}

export const PURCHASE_EVENTS: ReadonlySet<string> = new Set(['purchase', 'credit_purchase']);
export const CHURN_EVENTS: ReadonlySet<string> = new Set(['churned', 'subscription_cancelled']);
/** Every built-in name that can move a stage; all others (and every custom name) move nobody. */
export const STAGE_EVENTS: ReadonlySet<string> = new Set([
  'download',
  'activated',
  'signup',
  'trial_started',
  ...PURCHASE_EVENTS,
  ...CHURN_EVENTS,
]);

// Low to high. Churned is not on the climb: it is reached only by churning and left only by a purchase.
const LADDER: readonly Stage[] = ['downloader', 'activated', 'account', 'trial', 'purchaser', 'repeat'];
const PAID: ReadonlySet<Stage> = new Set(['purchaser', 'repeat', 'churned']);

export function isStage(value: unknown): value is Stage {
  return typeof value === 'string' && (STAGES as readonly string[]).includes(value);
}

export function isPaidStage(stage: Stage | null): boolean {
  return stage !== null && PAID.has(stage);
}

/** The stages a climbing event aims at: its own, and activated when the workspace counts it as activation. */
function climbTargets(eventType: string, settings: StageSettings): Stage[] {
  const targets: Stage[] = [];
  if (eventType === 'download' && settings.downloaderStage) targets.push('downloader');
  if (eventType === 'activated' || settings.activationEvents.includes(eventType)) targets.push('activated');
  if (eventType === 'signup') targets.push('account');
  if (eventType === 'trial_started' && settings.trialStage) targets.push('trial');
  return targets;
}

/** download, activated, signup and trial_started only move a person up, and never out of a paid stage. */
function climb(current: Stage | null, targets: Stage[]): Stage | null {
  if (isPaidStage(current)) return null;
  const from = current === null ? -1 : LADDER.indexOf(current);
  const best = Math.max(-1, ...targets.map((t) => LADDER.indexOf(t)));
  return best > from ? LADDER[best] : null;
}

/**
 * The stage a person enters when eventType arrives, or null when nobody moves.
 * purchasesBefore counts the person's earlier purchase and credit_purchase events. "First purchase"
 * means purchasesBefore is 0, whatever the stage (none included): it makes Purchaser. A later one
 * makes Repeat; a purchase while Repeat keeps Repeat; from Churned any purchase makes Purchaser.
 */
export function nextStage(
  current: Stage | null,
  eventType: string,
  settings: StageSettings,
  purchasesBefore: number,
): Stage | null {
  if (PURCHASE_EVENTS.has(eventType)) return afterPurchase(current, purchasesBefore);
  if (CHURN_EVENTS.has(eventType)) {
    if (current === 'purchaser' || current === 'repeat') return 'churned';
    // A trial that ended is not a customer who left.
    if (current === 'trial') return 'account';
    return null;
  }
  return climb(current, climbTargets(eventType, settings));
}

function afterPurchase(current: Stage | null, purchasesBefore: number): Stage | null {
  if (current === 'churned') return 'purchaser';
  if (current === 'repeat') return null;
  const target: Stage = purchasesBefore > 0 ? 'repeat' : 'purchaser';
  return target === current ? null : target;
}

// A person is engaged by a purchase or credit_purchase, signup, support post, email reply, or joining
// a list (docs/rest.md#messages: only engaged people get email).

/** Events that make the person who did them engaged. */
export const ENGAGING_EVENTS: readonly string[] = ['purchase', 'credit_purchase', 'signup'];

/**
 * Actions that engage through their own code path rather than an event: a support post, an email
 * reply and a list join. The values are the timeline kinds those actions write.
 */
export const ENGAGING_ACTIONS = {
  supportPost: 'support',
  emailReply: 'email_received',
  listJoin: 'subscribed',
} as const;

export function isEngagingEvent(type: string): boolean {
  return ENGAGING_EVENTS.includes(type);
}

/** The timeline kinds that mark a person engaged: the engaging events and the actions' own rows. */
export const ENGAGING_TIMELINE_KINDS: readonly string[] = [...ENGAGING_EVENTS, ...Object.values(ENGAGING_ACTIONS)];
