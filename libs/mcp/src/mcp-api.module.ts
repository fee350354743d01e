import { Module } from '@nestjs/common';
import { EventsModule } from '@app/events';
import { MessagingApiModule } from '@app/messaging';
import { McpController } from './http/mcp.controller';
import { ToolDoorGuard } from './tool-caller';
import { ToolsService } from './tools/tools.service';

/** The api's tool door (interface.md "Tool door", decisions.md section 10). */
@Module({
  imports: [EventsModule, MessagingApiModule],
  controllers: [McpController],
  providers: [ToolsService, ToolDoorGuard],
})
export class McpApiModule {}
