// GraphQL: connectDoor, doors (with their last twenty receipts), disconnectDoor (decisions.md
// section 8), owners and admins only.
import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Manager, Member } from '@app/workspaces';
import { groupedLoader, Loaders, ReceiptRow } from '@app/edge';
import { DoorRow } from '../door-connections.repository';
import { DoorsService } from '../doors.service';
import { ConnectDoorInput, ConnectedDoorType, DoorReceiptType, DoorType } from './doors.types';

/** The door's log: as many as the outgoing delivery log shows. */
const DOOR_RECEIPTS_SHOWN = 20;

const doorView = (row: DoorRow): DoorType => ({
  workspaceId: row.workspace_id,
  id: row.id,
  kind: row.kind,
  createdAt: new Date(row.created_at),
  domain: row.domain ?? undefined,
  stars: row.options?.stars === true,
});

const receiptView = (row: ReceiptRow): DoorReceiptType => ({
  at: new Date(row.received_at),
  eventId: row.webhook_id,
  type: row.type ?? undefined,
  answer: row.answer ?? 'recorded',
  httpStatus: row.http_status ?? 200,
});

@Resolver(() => DoorType)
@UseGuards(GraphqlAuthGuard)
export class DoorsResolver {
  constructor(private readonly doors: DoorsService) {}

  @Query(() => [DoorType], {
    name: 'doors',
    description:
      "The workspace's third-party doors, oldest first, without their secrets or addresses (see doorAddress).",
  })
  async doorConnections(@Member() auth: AuthContext) {
    return (await this.doors.list(auth.workspaceId)).map(doorView);
  }

  @Query(() => String, {
    name: 'doorAddress',
    description: "A door's address again, to paste into its provider; owners and admins only.",
  })
  doorAddress(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    return this.doors.address(auth.workspaceId, id);
  }

  @Mutation(() => ConnectedDoorType, {
    description: 'The address to paste into the provider (doorAddress shows it again).',
  })
  async connectDoor(@Manager() auth: AuthContext, @Args('input') input: ConnectDoorInput) {
    const { door, address } = await this.doors.connect(auth.workspaceId, input);
    return { door: doorView(door), address };
  }

  @Mutation(() => Boolean, { description: "The door's address answers 404 from now on." })
  async disconnectDoor(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    await this.doors.disconnect(auth.workspaceId, id);
    return true;
  }

  @ResolveField(() => [DoorReceiptType], { description: 'The last twenty posts the door answered, newest first.' })
  async receipts(@Parent() door: DoorType, @Context() ctx: { loaders?: Loaders }) {
    const rows = await groupedLoader(
      ctx,
      'door-receipts',
      (ids) => this.doors.receiptsOf(ids, DOOR_RECEIPTS_SHOWN),
      (row: ReceiptRow) => row.door,
    ).load(door.id);
    return rows.map(receiptView);
  }
}
