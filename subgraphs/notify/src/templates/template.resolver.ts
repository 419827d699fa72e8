import { Arg, Args, Ctx, Directive, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { ConnectionArgs, LIST_SIZE, type Connection } from '../../../../platform/graphql/connection.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { NotifyShared } from '../notify.shared.js';
import type { Template } from './template.entity.js';
import { TemplateService, templateView, type TemplateView } from './template.service.js';
import {
  CreateNotificationTemplateInput,
  CreateNotificationTemplatePayload,
  NotificationTemplateConnection,
  NotificationTemplateType,
} from './template.type.js';
import type { TemplateContent } from './template.content.js';

type Ctx = SubgraphContext<NotifyShared>;

function service(ctx: Ctx, permission: 'templates:read' | 'templates:write'): TemplateService {
  return new TemplateService(ctx.em, authorize(ctx, 'notify', permission));
}

const views = (connection: Connection<Template>): Connection<TemplateView> => ({
  ...connection,
  edges: connection.edges.map((edge) => ({ ...edge, node: templateView(edge.node) })),
  nodes: connection.nodes.map(templateView),
});

@Resolver(() => NotificationTemplateType)
export class TemplateResolver {
  @Mutation(() => CreateNotificationTemplatePayload, {
    description: 'Saves a template: a new immutable version of its name (1 for a new name)',
  })
  async createNotificationTemplate(
    @Arg('input', { description: 'The template’s name and content' }) input: CreateNotificationTemplateInput,
    @Ctx() ctx: Ctx,
  ) {
    return {
      notificationTemplate: templateView(await service(ctx, 'templates:write').create(input.name, input.channels as TemplateContent)),
    };
  }

  @Query(() => NotificationTemplateType, {
    nullable: true,
    description: 'A template: its latest version, or the one asked for; null when there is no such name or version',
  })
  async notificationTemplate(
    @Arg('name', { description: 'The template’s name' }) name: string,
    @Arg('version', () => Int, { nullable: true, description: 'The version; default the latest' }) version: number | null,
    @Ctx() ctx: Ctx,
  ) {
    const template = await service(ctx, 'templates:read').find(name, version);
    return template && templateView(template);
  }

  @Directive(LIST_SIZE)
  @Query(() => NotificationTemplateConnection, {
    description: 'Every version of a template, newest first; empty when there is no such name',
  })
  async notificationTemplateVersions(
    @Arg('name', { description: 'The template’s name' }) name: string,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return views(await service(ctx, 'templates:read').versions(name, page));
  }

  @Directive(LIST_SIZE)
  @Query(() => NotificationTemplateConnection, { description: 'The latest version of each of the organization’s templates, by name' })
  async notificationTemplates(@Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return views(await service(ctx, 'templates:read').listLatest(page));
  }
}
