// GraphQL: templates (docs/graphql.md#messages-and-templates), sending, the messages page and a person's messages.
import { UseGuards } from '@nestjs/common';
import {
  Args,
  Context,
  Field,
  ID,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Parent,
  Query,
  ResolveField,
  Resolver,
} from '@nestjs/graphql';
import { AuthContext, GraphqlAuthGuard, Manager, Member } from '@app/workspaces';
import { groupedLoader, Loaders, pageSize } from '@app/edge';
import { PersonType, TimelineEntryType } from '@app/events';
import { messageView, MessagesService } from '../messages.service';
import { PersonMessagesRepository } from '../person-messages.repository';
import { TemplatesService } from '../templates.service';

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

@InputType()
class UpdateTemplateInput {
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) subject?: string;
  @Field({ nullable: true }) body?: string;
}

/** POST /api/v1/messages as GraphQL: `person` is the REST body's `to`. */
@InputType('SendMessageInput')
class SendMessageArgs {
  @Field({ description: 'Record id or email.' }) person: string;
  @Field({ nullable: true, description: 'Required without a template; with one, overrides its subject.' })
  subject?: string;
  @Field({
    nullable: true,
    description: 'Markdown with Liquid variables. Required without a template; with one, overrides its body.',
  })
  body?: string;
  @Field({ nullable: true, description: "A template's id or name." }) template?: string;
}

@ObjectType('TemplatePreview')
class TemplatePreviewType {
  @Field() subject: string;
  @Field() html: string;
  @Field() text: string;
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
    private readonly templates: TemplatesService,
    private readonly messages: MessagesService,
  ) {}

  @Mutation(() => TemplateType, {
    description: 'Markdown with Liquid variables; a template with a syntax error is refused.',
  })
  createTemplate(@Manager() auth: AuthContext, @Args('input') input: CreateTemplateInput) {
    return this.templates.create(auth.workspaceId, input);
  }

  @Mutation(() => TemplateType, { description: 'Changes the fields given; the same checks as createTemplate.' })
  updateTemplate(
    @Manager() auth: AuthContext,
    @Args('id', { description: 'Id or name.' }) id: string,
    @Args('input') input: UpdateTemplateInput,
  ) {
    return this.templates.update(auth.workspaceId, id, input);
  }

  @Query(() => TemplatePreviewType, {
    description: 'The template filled in for a person (record id or email), as it would be sent; nothing is sent.',
  })
  previewTemplate(
    @Member() auth: AuthContext,
    @Args('id', { description: 'Id or name.' }) id: string,
    @Args('person') person: string,
  ) {
    return this.templates.preview(auth.workspaceId, id, person);
  }

  @Mutation(() => MessageType, {
    description:
      'Sends an email as POST /api/v1/messages does (any member of the workspace, the same rules and refusals: ' +
      'not_engaged, no_email, no_such_person, unknown_template...); answers the message stored.',
  })
  async sendMessage(@Member() auth: AuthContext, @Args('input') input: SendMessageArgs) {
    const sent = await this.messages.send(auth, {
      to: input.person,
      subject: input.subject,
      body: input.body,
      template: input.template,
    });
    return this.messages.one(auth, sent.id);
  }

  @Query(() => [TemplateType], { name: 'templates', description: 'By name.' })
  allTemplates(@Member() auth: AuthContext) {
    return this.templates.list(auth.workspaceId);
  }

  @Query(() => MessagePageType, {
    name: 'messages',
    description: 'Newest first; the same filters and limits as GET /api/v1/messages.',
  })
  messagesPage(
    @Member() auth: AuthContext,
    @Args('since', { nullable: true, description: 'ISO 8601 date or date-time, inclusive.' }) since?: string,
    @Args('until', { nullable: true, description: 'ISO 8601 date or date-time, inclusive.' }) until?: string,
    @Args('person', { nullable: true, description: 'Record id or email.' }) person?: string,
    @Args('direction', { nullable: true, description: 'in or out' }) direction?: string,
    @Args('limit', { type: () => Int, nullable: true, description: '1 to 100, default 50.' }) limit?: number,
    @Args('cursor', { nullable: true }) cursor?: string,
  ) {
    const given = {
      since,
      until,
      person,
      direction,
      limit: limit === null || limit === undefined ? undefined : String(limit),
      cursor,
    };
    return this.messages.page(
      auth,
      Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined && value !== null)),
    );
  }
}

@Resolver(() => PersonType)
@UseGuards(GraphqlAuthGuard)
export class PersonMessagesResolver {
  constructor(private readonly personMessages: PersonMessagesRepository) {}

  @ResolveField(() => [MessageType], {
    description: "The person's latest emails in and out, newest first (first: 1 to 100, default 50).",
  })
  async messages(
    @Parent() person: PersonType & { workspaceId: string },
    @Context() ctx: { loaders?: Loaders },
    @Args('first', { type: () => Int, nullable: true }) first?: number,
  ) {
    const limit = pageSize(first);
    const name = `messages:${person.workspaceId}:${limit}`;
    const rows = await groupedLoader(
      ctx,
      name,
      (ids) => this.personMessages.latestOf(person.workspaceId, ids, limit),
      (r) => r.person_id,
    ).load(person.id);
    return rows.map(messageView);
  }
}

@Resolver(() => TimelineEntryType)
@UseGuards(GraphqlAuthGuard)
export class TimelineEmailResolver {
  constructor(private readonly personMessages: PersonMessagesRepository) {}

  @ResolveField(() => MessageType, {
    nullable: true,
    description: "An email_sent or email_received row's email: its subject and what the provider last said of it.",
  })
  async email(@Parent() entry: TimelineEntryType & { workspaceId?: string }, @Context() ctx: { loaders?: Loaders }) {
    const workspaceId = entry.workspaceId;
    if (!workspaceId || (entry.type !== 'email_sent' && entry.type !== 'email_received')) return null;
    const [row] = await groupedLoader(
      ctx,
      `timeline-emails:${workspaceId}`,
      (ids) => this.personMessages.byIds(workspaceId, ids),
      (r) => r.id,
    ).load(entry.id);
    return row ? messageView(row) : null;
  }
}
