// An email link goes out through the configured email provider. With none, development
// writes the link to the api's log (the sign-in page says so); production refuses to offer links.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig, CONFIG, escapeHtml } from '@app/platform';
import { EMAIL_PROVIDER, EmailProvider } from '@app/messaging';

export type LinkDelivery = 'sent' | 'logged' | 'off';

@Injectable()
export class SignInMail {
  private readonly logger = new Logger('SignIn');

  constructor(
    @Inject(EMAIL_PROVIDER) private readonly provider: EmailProvider | null,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  /** How links reach people on this deployment. */
  get delivery(): LinkDelivery {
    if (this.provider) return 'sent';
    return this.config.nodeEnv === 'production' ? 'off' : 'logged';
  }

  async send(email: string, token: string): Promise<void> {
    const link = `${this.config.baseUrl}/sign-in/link?token=${encodeURIComponent(token)}`;
    if (!this.provider) {
      this.logger.warn(`sign-in link for ${email} (no email provider, development only): ${link}`);
      return;
    }
    const text =
      `Sign in to Lifeline with this link. It works once, for 15 minutes:\n\n${link}\n\nIf you did not ask for ` +
      `it, ignore this email.`;
    const html = `<p>Sign in to Lifeline with this link. It works once, for 15 minutes:</p><p><a href="${escapeHtml(link)}">Sign in</a></p><p>If you did not ask for it, ignore this email.</p>`;
    await this.provider.send({
      from: this.config.emailFrom,
      to: email,
      subject: 'Your Lifeline sign-in link',
      text,
      html,
    });
  }
}
