// GraphQL: members and keys. Members read; owners and admins change (roles.ts).
import { UseGuards } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuthContext } from '../auth/auth-context';
import { GraphqlAuthGuard, Manager, Member } from '../auth/graphql-auth.guard';
import { MembersService } from '../members.service';
import type { MemberEntity } from '../workspaces.types';
import { CreatedKeyType, KeyType, MemberType } from './workspace.types';

const memberView = (m: MemberEntity): MemberType => ({
  id: m.id,
  email: m.email,
  role: m.role,
  createdAt: m.createdAt,
});

@Resolver()
@UseGuards(GraphqlAuthGuard)
export class MembersResolver {
  constructor(private readonly members: MembersService) {}

  @Query(() => [MemberType], { name: 'members', description: 'Members still in the workspace, oldest first.' })
  async listMembers(@Member() auth: AuthContext) {
    return (await this.members.list(auth.workspaceId)).map(memberView);
  }

  @Query(() => [KeyType], { description: 'Secret keys with their hint and last use, newest first; never the key.' })
  async keys(@Manager() auth: AuthContext): Promise<KeyType[]> {
    return (await this.members.keys(auth.workspaceId)).map((k) => ({
      id: k.id,
      hint: k.hint,
      memberEmail: k.member_email,
      createdAt: new Date(k.created_at),
      lastUsedAt: k.last_used_at ? new Date(k.last_used_at) : undefined,
      revokedAt: k.revoked_at ? new Date(k.revoked_at) : undefined,
    }));
  }

  @Mutation(() => CreatedKeyType, {
    description: 'A new secret key acting as the given member (added as a member when new); shown once.',
  })
  async createKey(@Manager() auth: AuthContext, @Args('member') member: string) {
    const created = await this.members.createKey(auth.workspaceSlug, member);
    return { keyId: created.keyId, memberEmail: created.member.email, secretKey: created.secretKey };
  }

  @Mutation(() => Boolean, { description: 'The key is refused from the next request on, by every process.' })
  async revokeKey(@Manager() auth: AuthContext, @Args('id', { type: () => ID }) id: string) {
    await this.members.revokeKey(auth.workspaceId, id);
    return true;
  }

  @Mutation(() => MemberType, {
    description:
      'role: owner, admin or member. Only an owner makes owners. A removed member comes back without their old keys.',
  })
  async addMember(@Manager() auth: AuthContext, @Args('email') email: string, @Args('role') role: string) {
    return memberView(await this.members.add(auth.role, auth.workspaceSlug, email, role));
  }

  @Mutation(() => MemberType, { description: 'The last owner cannot be demoted.' })
  async changeRole(@Manager() auth: AuthContext, @Args('member') member: string, @Args('role') role: string) {
    return memberView(await this.members.changeRole(auth.role, auth.workspaceSlug, member, role));
  }

  @Mutation(() => Boolean, {
    description:
      'Removes a member and revokes their keys; those answer no_longer_a_member. The last owner cannot be removed.',
  })
  async removeMember(@Manager() auth: AuthContext, @Args('member') member: string) {
    await this.members.remove(auth.role, auth.workspaceSlug, member);
    return true;
  }
}
