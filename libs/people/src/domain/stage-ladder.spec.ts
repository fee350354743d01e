// The stage moves of docs/rest.md#events, one case per row, then the cases they leave open.
import {
  ENGAGING_ACTIONS,
  ENGAGING_TIMELINE_KINDS,
  isEngagingEvent,
  isPaidStage,
  nextStage,
  Stage,
  STAGE_NAMES,
  StageSettings,
  STAGES,
} from './stage-ladder';

const app: StageSettings = { downloaderStage: true, trialStage: false, activationEvents: [] };
const web: StageSettings = { downloaderStage: false, trialStage: false, activationEvents: [] };
const trial: StageSettings = { ...app, trialStage: true };

type Row = [string, Stage | null, string, StageSettings, number, Stage | null];
/** One row: the stage a person at `current` moves to on `event` (null: they stay where they are). */
const movesTo = (...[, current, event, settings, purchases, expected]: Row) => {
  expect(nextStage(current, event, settings, purchases)).toBe(expected);
};

describe('lifecycle stage table (docs/rest.md#events), one case per row', () => {
  it.each<Row>([
    ['any + download, workspace has a Downloader stage -> Downloader', null, 'download', app, 0, 'downloader'],
    ['any + download, workspace has no Downloader stage -> unchanged', null, 'download', web, 0, null],
    ['any + activated -> Activated', 'downloader', 'activated', app, 0, 'activated'],
    ['any + signup -> Account', 'activated', 'signup', app, 0, 'account'],
    [
      'any except already paid + trial_started, Trial switched on -> Trial',
      'account',
      'trial_started',
      trial,
      0,
      'trial',
    ],
    ['any + purchase, first purchase -> Purchaser', 'trial', 'purchase', trial, 0, 'purchaser'],
    ['any + credit_purchase, first purchase -> Purchaser', 'account', 'credit_purchase', app, 0, 'purchaser'],
    ['Purchaser + purchase, second purchase -> Repeat', 'purchaser', 'purchase', app, 1, 'repeat'],
    ['Churned + purchase -> Purchaser (moved back up)', 'churned', 'purchase', app, 3, 'purchaser'],
    ['Purchaser + churned -> Churned', 'purchaser', 'churned', app, 1, 'churned'],
    ['Repeat + subscription_cancelled -> Churned', 'repeat', 'subscription_cancelled', app, 2, 'churned'],
    [
      'Trial + churned -> Account (a trial that ended is not a customer who left)',
      'trial',
      'churned',
      trial,
      0,
      'account',
    ],
  ])('%s', movesTo);
});

describe('the same rows from other starting stages', () => {
  it.each<Row>([
    ['download from nothing in a web-app workspace moves nobody', null, 'download', web, 0, null],
    ['download in a web-app workspace leaves Account as it is', 'account', 'download', web, 0, null],
    ['activated from nothing -> Activated', null, 'activated', app, 0, 'activated'],
    ['signup from nothing -> Account', null, 'signup', app, 0, 'account'],
    ['trial_started from nothing, Trial on -> Trial', null, 'trial_started', trial, 0, 'trial'],
    ['first purchase from nothing -> Purchaser', null, 'purchase', app, 0, 'purchaser'],
    ['first purchase from Downloader -> Purchaser', 'downloader', 'credit_purchase', app, 0, 'purchaser'],
    ['credit_purchase as the second purchase makes Repeat', 'purchaser', 'credit_purchase', app, 1, 'repeat'],
    ['Churned + credit_purchase -> Purchaser', 'churned', 'credit_purchase', app, 1, 'purchaser'],
    ['Purchaser + subscription_cancelled -> Churned', 'purchaser', 'subscription_cancelled', app, 1, 'churned'],
    ['Repeat + churned -> Churned', 'repeat', 'churned', app, 4, 'churned'],
    ['Trial + subscription_cancelled -> Account', 'trial', 'subscription_cancelled', trial, 0, 'account'],
  ])('%s', movesTo);
});

describe('the cases the stage table leaves open', () => {
  it.each<Row>([
    ['download does not move Activated down', 'activated', 'download', app, 0, null],
    ['activated does not move Account down', 'account', 'activated', app, 0, null],
    ['signup does not move Trial down', 'trial', 'signup', trial, 0, null],
    ['signup never moves a paid stage (Purchaser)', 'purchaser', 'signup', app, 1, null],
    ['activated never moves a paid stage (Churned)', 'churned', 'activated', app, 1, null],
    ['download never moves a paid stage (Repeat)', 'repeat', 'download', app, 2, null],
    ['a repeated signup at Account moves nobody', 'account', 'signup', app, 0, null],
  ])('download, activated, signup and trial_started only move a person up: %s', movesTo);

  it.each<Stage>(['purchaser', 'repeat', 'churned'])('trial_started never moves the paid stage %s', (paid) => {
    expect(isPaidStage(paid)).toBe(true);
    expect(nextStage(paid, 'trial_started', trial, 1)).toBeNull();
  });

  it('trial_started moves nobody while the Trial stage is switched off', () => {
    expect(nextStage('account', 'trial_started', app, 0)).toBeNull();
    expect(nextStage(null, 'trial_started', app, 0)).toBeNull();
  });

  it('a later purchase makes Repeat from any unpaid stage; a purchase at Repeat keeps Repeat', () => {
    expect(nextStage('account', 'purchase', app, 2)).toBe('repeat');
    expect(nextStage('repeat', 'purchase', app, 5)).toBeNull();
    expect(nextStage('repeat', 'credit_purchase', app, 0)).toBeNull();
  });

  it.each<Stage | null>([null, 'downloader', 'activated', 'account', 'churned'])(
    'churned and subscription_cancelled move only Purchaser, Repeat and Trial: %s stays',
    (stage) => {
      expect(nextStage(stage, 'churned', trial, 0)).toBeNull();
      expect(nextStage(stage, 'subscription_cancelled', trial, 0)).toBeNull();
    },
  );

  it('workspace activation events count as activated, whether custom or built-in', () => {
    const settings: StageSettings = { ...app, activationEvents: ['project_created', 'configure'] };
    expect(nextStage('downloader', 'project_created', settings, 0)).toBe('activated');
    expect(nextStage(null, 'configure', settings, 0)).toBe('activated');
    expect(nextStage('account', 'project_created', settings, 0)).toBeNull();
  });

  it('an activation event that is also download activates even in a web-app workspace', () => {
    expect(nextStage(null, 'download', { ...web, activationEvents: ['download'] }, 0)).toBe('activated');
  });

  it('an activation event that is also signup still makes Account, the higher stage', () => {
    expect(nextStage(null, 'signup', { ...app, activationEvents: ['signup'] }, 0)).toBe('account');
  });

  it.each([
    'pageview',
    'configure',
    'cta_click',
    'refund',
    'sign_in',
    'subscription_started',
    'subscription_renewed',
    'my_custom_event',
  ])('events not listed and custom names move nobody: %s', (event) => {
    for (const stage of [null, ...STAGES]) expect(nextStage(stage, event, trial, 0)).toBeNull();
  });

  it('every stage has a display name', () => {
    expect(STAGES.map((s) => STAGE_NAMES[s])).toEqual([
      'Downloader',
      'Activated',
      'Account',
      'Trial',
      'Purchaser',
      'Repeat',
      'Churned',
    ]);
  });
});

// Who counts as engaged.
describe('engagement', () => {
  it.each(['purchase', 'credit_purchase', 'signup'])('the event %s makes a person engaged', (type) => {
    expect(isEngagingEvent(type)).toBe(true);
  });

  it.each([
    'pageview',
    'download',
    'activated',
    'trial_started',
    'sign_in',
    'refund',
    'github_star',
    'my_custom_event',
    'support',
    'subscribed',
  ])('the event %s does not', (type) => {
    expect(isEngagingEvent(type)).toBe(false);
  });

  it('a support post, an email reply and a list join engage through their own timeline kinds', () => {
    expect(ENGAGING_ACTIONS).toEqual({ supportPost: 'support', emailReply: 'email_received', listJoin: 'subscribed' });
    expect([...ENGAGING_TIMELINE_KINDS].sort()).toEqual([
      'credit_purchase',
      'email_received',
      'purchase',
      'signup',
      'subscribed',
      'support',
    ]);
  });
});
