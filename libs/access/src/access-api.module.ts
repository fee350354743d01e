import { INestApplication, Logger, Module } from '@nestjs/common';
import { CONFIG, type AppConfig } from '@app/platform';
import { MessagingModule } from '@app/messaging';
import { ConfirmationController } from './http/confirmation.controller';
import { ConsentController } from './http/consent.controller';
import { PreferencesController } from './http/preferences.controller';
import { SignInController } from './http/sign-in.controller';
import { formReader } from './http/browser';
import { installAuthorizationServer } from './oauth/authorization-server';
import { OAuthProvider } from './oauth/oauth-provider';
import { SignInMail } from './sign-in-mail';

/** How people and connectors get in: the sign-in pages and the tool door's authorization server. */
@Module({
  imports: [MessagingModule],
  controllers: [SignInController, ConsentController, PreferencesController, ConfirmationController],
  providers: [SignInMail, OAuthProvider],
})
export class AccessApiModule {}

/** Before the app's routes: the pages' form bodies, and the SDK's OAuth endpoints. */
export function installAccess(app: INestApplication): void {
  app.use(['/sign-in', '/sign-out', '/consent', '/preferences', '/confirm'], ...formReader());
  installAuthorizationServer(app, app.get(OAuthProvider), app.get<AppConfig>(CONFIG).baseUrl, new Logger('SignIn'));
}
