// interface.md "Lifecycle stages" and decisions.md section 4: the ladder, decided when an event
// arrives and never recomputed.

export const STAGES = ['downloader', 'activated', 'account', 'trial', 'purchaser', 'repeat', 'churned'] as const;
export type Stage = (typeof STAGES)[number];

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
  downloaderStage: boolean;
  trialStage: boolean;
  activationEvents: readonly string[];
}

// Low to high; churned sits outside the climb (it is reached only by churning).
const RANK: Record<Stage, number> = { downloader: 1, activated: 2, account: 3, trial: 4, purchaser: 5, repeat: 6, churned: 5 };
const PAID: ReadonlySet<Stage> = new Set(['purchaser', 'repeat', 'churned']);
export const PURCHASE_EVENTS: ReadonlySet<string> = new Set(['purchase', 'credit_purchase']);
export const CHURN_EVENTS: ReadonlySet<string> = new Set(['churned', 'subscription_cancelled']);

/** Moves up only: never down, and never out of a paid stage. */
function climb(current: Stage | null, target: Stage): Stage | null {
  if (current === null) return target;
  if (PAID.has(current)) return null;
  return RANK[target] > RANK[current] ? target : null;
}

/**
 * The stage a person enters when eventType arrives, or null when nobody moves.
 * purchasesBefore counts the person's earlier purchases (purchase and credit_purchase alike):
 * with none, a purchase is the first purchase.
 */
export function nextStage(current: Stage | null, eventType: string, settings: StageSettings, purchasesBefore: number): Stage | null {
  if (PURCHASE_EVENTS.has(eventType)) {
    if (current === 'churned') return 'purchaser';
    const target: Stage = purchasesBefore === 0 ? 'purchaser' : 'repeat';
    return target === current ? null : target === 'purchaser' && current === 'repeat' ? null : target;
  }
  if (CHURN_EVENTS.has(eventType)) {
    if (current === 'purchaser' || current === 'repeat') return 'churned';
    if (current === 'trial') return 'account';
    return null;
  }
  switch (eventType) {
    case 'download':
      return settings.downloaderStage ? climb(current, 'downloader') : null;
    case 'signup':
      return climb(current, 'account');
    case 'trial_started':
      return settings.trialStage ? climb(current, 'trial') : null;
    case 'activated':
      return climb(current, 'activated');
  }
  return settings.activationEvents.includes(eventType) ? climb(current, 'activated') : null;
}
