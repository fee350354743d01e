// decisions.md section 4: who counts as engaged.
import { ENGAGING_ACTIONS, ENGAGING_TIMELINE_KINDS, isEngagingEvent } from './engagement';

describe('engagement (decisions.md section 4)', () => {
  it.each(['purchase', 'credit_purchase', 'signup'])('the event %s makes a person engaged', (type) => {
    expect(isEngagingEvent(type)).toBe(true);
  });

  it.each(['pageview', 'download', 'activated', 'trial_started', 'sign_in', 'refund', 'github_star', 'my_custom_event', 'support', 'subscribed'])(
    'the event %s does not',
    (type) => {
      expect(isEngagingEvent(type)).toBe(false);
    },
  );

  it('a support post, an email reply and a list join engage through their own timeline kinds', () => {
    expect(ENGAGING_ACTIONS).toEqual({ supportPost: 'support', emailReply: 'email_received', listJoin: 'subscribed' });
    expect([...ENGAGING_TIMELINE_KINDS].sort()).toEqual(['credit_purchase', 'email_received', 'purchase', 'signup', 'subscribed', 'support']);
  });
});
