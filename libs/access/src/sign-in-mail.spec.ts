// How an email link reaches a person: the provider when there is one; without, the api's log
// in development, and no email links at all in production.
import { Logger } from '@nestjs/common';
import type { AppConfig } from '@app/platform';
import type { EmailProvider, OutgoingMail } from '@app/messaging';
import { SignInMail } from './sign-in-mail';

const config = (nodeEnv: string) =>
  ({ nodeEnv, baseUrl: 'https://lifeline.example', emailFrom: 'Lifeline <no-reply@lifeline.example>' }) as AppConfig;

describe('SignInMail', () => {
  it('sends the link through the provider, once, to the address', async () => {
    const sent: OutgoingMail[] = [];
    const provider: EmailProvider = { name: 'test', send: async (mail) => (sent.push(mail), { providerId: 'x' }) };
    const mail = new SignInMail(provider, config('production'));
    expect(mail.delivery).toBe('sent');
    await mail.send('ada@example.com', 'lll_token');
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toBe('ada@example.com');
    expect(sent[0].text).toContain('https://lifeline.example/sign-in/link?token=lll_token');
  });

  it('without a provider: written to the log in development, and off in production', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const development = new SignInMail(null, config('development'));
      expect(development.delivery).toBe('logged');
      await development.send('ada@example.com', 'lll_token');
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('https://lifeline.example/sign-in/link?token=lll_token'),
      );
      expect(new SignInMail(null, config('production')).delivery).toBe('off');
    } finally {
      warn.mockRestore();
    }
  });
});
