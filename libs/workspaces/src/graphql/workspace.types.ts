import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('WorkspaceRef')
export class WorkspaceRefType {
  @Field(() => ID) id: string;
  @Field() slug: string;
}

@ObjectType('Workspace')
export class WorkspaceType {
  @Field(() => ID) id: string;
  @Field() slug: string;
  @Field() name: string;
  @Field({ description: 'app (has a Downloader stage) or web (a web app: no Downloader stage)' }) kind: string;
  @Field() publicKey: string;
  @Field() publicBaseUrl: string;
  @Field(() => [String]) allowedOrigins: string[];
  @Field() trialStage: boolean;
  @Field() downloaderStage: boolean;
  @Field(() => [String]) activationEvents: string[];
  @Field(() => Int, {
    description:
      'An event whose occurred_at is more than this many hours before it arrives is history: recorded, but it ' +
      'starts no automation (1 to 8760; 24 by default).',
  })
  historyWindowHours: number;
  @Field(() => String, {
    nullable: true,
    description: 'The footer of every broadcast (docs/graphql.md#broadcasts); a broadcast is refused until it is set.',
  })
  postalAddress: string | null;
}

@ObjectType('WorkspaceSummary')
export class WorkspaceSummaryType {
  @Field(() => ID) id: string;
  @Field() slug: string;
  @Field() name: string;
  @Field({ description: 'app or web' }) kind: string;
  @Field() publicKey: string;
  @Field() publicBaseUrl: string;
}

@ObjectType('CreatedWorkspace')
export class CreatedWorkspaceType {
  @Field(() => WorkspaceRefType) workspace: WorkspaceRefType;
  @Field() publicKey: string;
  @Field({ description: 'Shown once; only its hash is stored.' }) secretKey: string;
  @Field() publicBaseUrl: string;
}

@ObjectType('CreatedKey')
export class CreatedKeyType {
  @Field(() => ID) keyId: string;
  @Field() memberEmail: string;
  @Field({ description: 'Shown once; only its hash is stored.' }) secretKey: string;
}

@InputType()
export class CreateWorkspaceInput {
  @Field() slug: string;
  @Field() owner: string;
  @Field(() => [String], { nullable: true }) origins?: string[];
  @Field({ nullable: true }) web?: boolean;
  @Field({ nullable: true }) name?: string;
}

@InputType()
export class UpdateWorkspaceSettingsInput {
  @Field(() => [String], { nullable: true }) allowedOrigins?: string[];
  @Field({ nullable: true }) trialStage?: boolean;
  @Field({ nullable: true }) downloaderStage?: boolean;
  @Field(() => [String], { nullable: true }) activationEvents?: string[];
  @Field(() => Int, { nullable: true, description: '1 to 8760 hours (a year).' }) historyWindowHours?: number;
  @Field(() => String, { nullable: true, description: 'Up to 500 characters, lines kept; an empty string clears it.' })
  postalAddress?: string;
}

@ObjectType('Member')
export class MemberType {
  @Field(() => ID) id: string;
  @Field() email: string;
  @Field({ description: 'owner, admin or member' }) role: string;
  @Field() createdAt: Date;
}

@ObjectType('Key')
export class KeyType {
  @Field(() => ID) id: string;
  @Field({ description: 'The last four characters of the key; the key itself is never shown again.' }) hint: string;
  @Field() memberEmail: string;
  @Field() createdAt: Date;
  @Field({ nullable: true, description: 'Written at most once a minute.' }) lastUsedAt?: Date;
  @Field({ nullable: true }) revokedAt?: Date;
}
