// GraphQL: the apps connected through the tool door's sign-in. Owners and admins see and
// revoke every connection of the workspace; a member their own.
import { UseGuards } from '@nestjs/common';
import { Args, Field, ID, Mutation, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { AuthContext, canManage } from '../auth/auth-context';
import { GraphqlAuthGuard, Member } from '../auth/graphql-auth.guard';
import { ConnectionsService } from '../sign-in/connections.service';

@ObjectType('ConnectedApp')
export class ConnectedAppType {
  @Field(() => ID) id: string;
  @Field({ description: 'The name the app registered itself under (its own claim).' }) name: string;
  @Field({ description: 'The email of the member it acts as.' }) member: string;
  @Field() createdAt: Date;
  @Field({ nullable: true }) lastUsedAt?: Date;
}

@Resolver()
@UseGuards(GraphqlAuthGuard)
export class ConnectedAppsResolver {
  constructor(private readonly connections: ConnectionsService) {}

  @Query(() => [ConnectedAppType], {
    description:
      'Apps signed in at the tool door, newest first: every one of the workspace for owners and admins, your ' +
      'own otherwise.',
  })
  async connectedApps(@Member() auth: AuthContext): Promise<ConnectedAppType[]> {
    return (await this.connections.list(auth, canManage(auth))).map((c) => ({
      id: c.id,
      name: c.client_name,
      member: c.member_email,
      createdAt: new Date(c.created_at),
      lastUsedAt: c.last_used_at ? new Date(c.last_used_at) : undefined,
    }));
  }

  @Mutation(() => Boolean, {
    description:
      'Disconnects an app: its access and refresh tokens are refused from the next call on (owners and admins: ' +
      "any of the workspace's; members: their own).",
  })
  async revokeConnectedApp(@Member() auth: AuthContext, @Args('id', { type: () => ID }) id: string): Promise<boolean> {
    await this.connections.revoke(auth, id, canManage(auth));
    return true;
  }
}
