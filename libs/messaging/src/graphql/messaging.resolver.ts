// GraphQL: templates (decisions.md section 9 createTemplate) and the messages page.
import { UseGuards } from '@nestjs/common';
import { Args, Field, ID, InputType, Int, Mutation, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Manager, Member, newId, Refusal } from '@app/core';
import { parseBody, parseSubject, validateTemplate } from '../domain';
import { MessagesService } from '../messages.service';
import { TemplatesRepository } from '../templates.repository';

@ObjectType('Template')
class TemplateType {
  @Field(() => ID) id: string;
  @Field() name: string;
  @Field() subject: string;
  @Field() body: string;
}

@InputType()
class CreateTemplateInput {
  @Field() name: string;
  @Field() subject: string;
  @Field() body: string;
}

@ObjectType('MessagePerson')
class MessagePersonType {
  @Field(() => ID) id: string;
  @Field() name: string;
  @Field() email: string;
}

@ObjectType('Message')
class MessageType {
  @Field(() => ID) id: string;
  @Field() direction: string;
  @Field() at: string;
  @Field(() => MessagePersonType) person: MessagePersonType;
  @Field() subject: string;
  @Field() text: string;
  @Field({ nullable: true }) providerId?: string;
  @Field({ nullable: true }) status?: string;
}

@ObjectType('MessagePage')
class MessagePageType {
  @Field(() => [MessageType]) messages: MessageType[];
  @Field({ nullable: true }) nextCursor?: string;
}

@Resolver()
@UseGuards(GraphqlAuthGuard)
export class MessagingResolver {
  constructor(
    private readonly templates: TemplatesRepository,
    private readonly messages: MessagesService,
  ) {}

  @Mutation(() => TemplateType, { description: 'Markdown with Liquid variables; a template with a syntax error is refused.' })
  async createTemplate(@Manager() auth: AuthContext, @Args('input') input: CreateTemplateInput) {
    const name = input.name.trim();
    if (!name || name.length > 200) throw new Refusal('invalid_field', 'name must be 1 to 200 characters.');
    const invalid = validateTemplate(input.subject, input.body);
    if (invalid) throw invalid;
    for (const outcome of [parseSubject(input.subject), parseBody(input.body)]) if (outcome instanceof Refusal) throw outcome;
    const created = await this.templates.create(auth.workspaceId, { id: newId('tpl'), name, subject: input.subject, body: input.body });
    if (!created) throw new Refusal('conflict', `A template named "${name}" already exists: choose another name.`);
    return created;
  }

  @Query(() => [TemplateType])
  templatesList(@Member() auth: AuthContext) {
    return this.templates.list(auth.workspaceId);
  }

  @Query(() => MessagePageType, { description: 'Newest first; the same filters as GET /api/v1/messages.' })
  messagesPage(
    @Member() auth: AuthContext,
    @Args('person', { nullable: true }) person?: string,
    @Args('direction', { nullable: true }) direction?: string,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
    @Args('cursor', { nullable: true }) cursor?: string,
  ) {
    const query: Record<string, unknown> = {};
    if (person) query.person = person;
    if (direction) query.direction = direction;
    if (limit !== undefined && limit !== null) query.limit = String(limit);
    if (cursor) query.cursor = cursor;
    return this.messages.page(auth, query);
  }
}
