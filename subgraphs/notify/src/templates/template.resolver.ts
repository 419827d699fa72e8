import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { NotifyDeps } from '../deps.js';
import { TemplateService, templateView } from './template.service.js';
import { CreateNotificationTemplateInput, NotificationTemplatePage, NotificationTemplateType } from './template.type.js';
import type { TemplateContent } from './template.content.js';

type Ctx = SubgraphContext<NotifyDeps>;

function service(ctx: Ctx, permission: 'templates:read' | 'templates:write'): TemplateService {
  return new TemplateService(ctx.em, authorize(ctx, 'notify', permission));
}

@Resolver(() => NotificationTemplateType)
export class TemplateResolver {
  @Mutation(() => NotificationTemplateType, { description: 'POST /v1/templates: a new immutable version of the named template' })
  async createNotificationTemplate(@Arg('input') input: CreateNotificationTemplateInput, @Ctx() ctx: Ctx) {
    return templateView(await service(ctx, 'templates:write').create(input.name, input.channels as TemplateContent));
  }

  @Query(() => NotificationTemplateType, { description: 'The latest version of a template, or the one named' })
  async notificationTemplate(
    @Arg('name') name: string,
    @Arg('version', () => Int, { nullable: true }) version: number | null,
    @Ctx() ctx: Ctx,
  ) {
    return templateView(await service(ctx, 'templates:read').get(name, version));
  }

  @Query(() => [NotificationTemplateType], { description: 'Every version of a template, newest first' })
  async notificationTemplateVersions(@Arg('name') name: string, @Ctx() ctx: Ctx) {
    return (await service(ctx, 'templates:read').versions(name)).map(templateView);
  }

  @Query(() => NotificationTemplatePage, { description: 'The latest version of every template, by name' })
  async notificationTemplates(@Args() { page, limit }: PageArgs, @Ctx() ctx: Ctx) {
    const result = await service(ctx, 'templates:read').listLatest(page, limit);
    return { ...result, data: result.data.map(templateView) };
  }
}
