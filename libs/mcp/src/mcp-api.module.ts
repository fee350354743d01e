import { Module } from '@nestjs/common';
import { AutomationsModule } from '@app/automations';
import { EventsModule } from '@app/events';
import { MessagingApiModule } from '@app/messaging';
import { McpController } from './http/mcp.controller';
import { ToolDoorGuard } from './tool-caller';
import { ToolsService } from './tools/tools.service';

/** The api's tool door (docs/mcp.md). */
@Module({
  imports: [EventsModule, MessagingApiModule, AutomationsModule],
  controllers: [McpController],
  providers: [ToolsService, ToolDoorGuard],
})
export class McpApiModule {}
