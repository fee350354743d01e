import { Module } from '@nestjs/common';
import { AutomationsModule } from './automations.module';
import { AutomationsResolver } from './graphql/automations.resolver';
import { SigningSecretResolver } from './graphql/signing-secret.resolver';
import { AutomationAddressController } from './http/automation-address.controller';
import { StartService } from './start.service';

/** The api's doors onto automations: GraphQL and each automation's own start address. */
@Module({
  imports: [AutomationsModule],
  controllers: [AutomationAddressController],
  providers: [StartService, AutomationsResolver, SigningSecretResolver],
})
export class AutomationsApiModule {}
