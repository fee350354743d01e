// GraphQL types of live segments (docs/graphql.md#segments).
import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import GraphQLJSON from '../../graphql/json.scalar';

@ObjectType('SegmentFill', { description: 'How far the fill of a new or changed definition has gone.' })
export class SegmentFillType {
  @Field(() => Int, { description: 'People gone over so far.' }) done: number;
  @Field(() => Int, { nullable: true, description: 'People in the workspace when the fill began; null until then.' })
  total?: number;
  @Field({ nullable: true }) startedAt?: Date;
}

@ObjectType('Segment', { description: 'People matching a definition, kept up to date on every write.' })
export class SegmentType {
  @Field(() => ID) id: string;
  @Field() name: string;
  @Field(() => GraphQLJSON, { description: 'The conditions, in the grammar of docs/graphql.md#segments.' })
  definition: unknown;
  @Field({ description: 'True while the members are being filled in after a new or changed definition.' })
  filling: boolean;
  @Field(() => SegmentFillType, { nullable: true, description: 'Progress while filling; null once filled.' })
  fill?: SegmentFillType;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
}

@ObjectType('SegmentRef')
export class SegmentRefType {
  @Field(() => ID) id: string;
  @Field() name: string;
}

@InputType()
export class CreateSegmentInput {
  @Field({ description: '1 to 80 characters, unique in the workspace.' }) name: string;
  @Field(() => GraphQLJSON) definition: unknown;
  @Field({
    nullable: true,
    description: 'Fire segment_entered for the people the first fill finds (default false: only later entries).',
  })
  announceFill?: boolean;
}

@InputType()
export class UpdateSegmentInput {
  @Field({ nullable: true, description: 'A rename keeps the members.' }) name?: string;
  @Field(() => GraphQLJSON, { nullable: true, description: 'A new definition fills the segment again.' })
  definition?: unknown;
}
