import { nextStage, Stage, StageSettings } from './stage-ladder';

const app: StageSettings = { downloaderStage: true, trialStage: false, activationEvents: [] };
const web: StageSettings = { downloaderStage: false, trialStage: false, activationEvents: [] };
const trial: StageSettings = { ...app, trialStage: true };

describe('lifecycle stage table (interface.md "Lifecycle stages")', () => {
  it.each<[string, Stage | null, string, StageSettings, number, Stage | null]>([
    ['any + download, workspace has a Downloader stage -> Downloader', null, 'download', app, 0, 'downloader'],
    ['any + download, no Downloader stage -> unchanged', null, 'download', web, 0, null],
    ['any + download, no Downloader stage, Account stays', 'account', 'download', web, 0, null],
    ['any + activated -> Activated', 'downloader', 'activated', app, 0, 'activated'],
    ['any + signup -> Account', 'activated', 'signup', app, 0, 'account'],
    ['any + signup from nothing -> Account', null, 'signup', app, 0, 'account'],
    ['any except paid + trial_started, Trial on -> Trial', 'account', 'trial_started', trial, 0, 'trial'],
    ['trial_started never moves a paid stage (Purchaser)', 'purchaser', 'trial_started', trial, 1, null],
    ['trial_started never moves a paid stage (Repeat)', 'repeat', 'trial_started', trial, 2, null],
    ['trial_started never moves a paid stage (Churned)', 'churned', 'trial_started', trial, 1, null],
    ['trial_started with Trial off moves nobody', 'account', 'trial_started', app, 0, null],
    ['any + purchase, first purchase -> Purchaser', 'trial', 'purchase', app, 0, 'purchaser'],
    ['any + credit_purchase, first purchase -> Purchaser', 'account', 'credit_purchase', app, 0, 'purchaser'],
    ['first purchase from nothing -> Purchaser', null, 'purchase', app, 0, 'purchaser'],
    ['Purchaser + second purchase -> Repeat', 'purchaser', 'purchase', app, 1, 'repeat'],
    ['Purchaser + credit_purchase as second purchase -> Repeat', 'purchaser', 'credit_purchase', app, 1, 'repeat'],
    ['Repeat + another purchase stays Repeat', 'repeat', 'purchase', app, 5, null],
    ['Churned + purchase -> Purchaser (moved back up)', 'churned', 'purchase', app, 3, 'purchaser'],
    ['Purchaser + churned -> Churned', 'purchaser', 'churned', app, 1, 'churned'],
    ['Repeat + subscription_cancelled -> Churned', 'repeat', 'subscription_cancelled', app, 2, 'churned'],
    ['Trial + churned -> Account (a trial that ended is not a customer who left)', 'trial', 'churned', trial, 0, 'account'],
    ['Trial + subscription_cancelled -> Account', 'trial', 'subscription_cancelled', trial, 0, 'account'],
    ['churned moves nobody else (Account)', 'account', 'churned', app, 0, null],
    ['churned moves nobody else (nothing yet)', null, 'subscription_cancelled', app, 0, null],
  ])('%s', (_name, current, event, settings, purchases, expected) => {
    expect(nextStage(current, event, settings, purchases)).toBe(expected);
  });
});

describe('decisions.md section 4 clarifications', () => {
  it('download, activated, signup and trial_started only move a person up', () => {
    expect(nextStage('account', 'download', app, 0)).toBeNull();
    expect(nextStage('account', 'activated', app, 0)).toBeNull();
    expect(nextStage('trial', 'signup', trial, 0)).toBeNull();
    expect(nextStage('purchaser', 'signup', app, 1)).toBeNull();
    expect(nextStage('churned', 'activated', app, 1)).toBeNull();
  });

  it('workspace activation events count as activated, custom or built-in', () => {
    const settings = { ...app, activationEvents: ['project_created', 'configure'] };
    expect(nextStage('downloader', 'project_created', settings, 0)).toBe('activated');
    expect(nextStage(null, 'configure', settings, 0)).toBe('activated');
  });

  it.each(['pageview', 'configure', 'cta_click', 'refund', 'sign_in', 'subscription_started', 'my_custom_event'])(
    '%s moves nobody',
    (event) => {
      expect(nextStage('account', event, app, 0)).toBeNull();
      expect(nextStage(null, event, app, 0)).toBeNull();
    },
  );
});
