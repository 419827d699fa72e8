import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { PageArgs } from '../../../../platform/graphql/pagination.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { VerificationDeps } from '../deps.js';
import { DeviceService } from './device.service.js';
import type { DeviceAssessment } from './device.entity.js';
import { AssessDeviceInput, DeviceAssessmentPage, DeviceAssessmentType } from './device.type.js';

type Ctx = SubgraphContext<VerificationDeps>;

function service(ctx: Ctx, access: 'read' | 'write'): DeviceService {
  const tenant = authorize(ctx, 'verification', `intelligence:${access}`);
  return new DeviceService(ctx.em, tenant, ctx.deps.ipIntelligence, ctx.deps.ipIntelligence.db);
}

function toType(a: DeviceAssessment): DeviceAssessmentType {
  return { ...a, device: a.fingerprint.parsed ?? { browser: null, os: null, deviceType: null, vendor: null, model: null } };
}

@Resolver()
export class DeviceResolver {
  @Mutation(() => DeviceAssessmentType, { description: 'POST /intelligence/device/fingerprint' })
  async assessDevice(@Arg('input') input: AssessDeviceInput, @Ctx() ctx: Ctx): Promise<DeviceAssessmentType> {
    const svc = service(ctx, 'write');
    return toType(
      await svc.assess({
        userId: input.userId,
        sessionId: input.sessionId,
        fingerprint: { ...input.fingerprint, ip: input.ip ?? input.fingerprint.ip },
        detectedIp: ctx.clientIp,
      }),
    );
  }

  @Query(() => DeviceAssessmentType, {
    description: 'GET /intelligence/device/{id}: an assessment id, or a dfp_ device id (its latest assessment)',
  })
  async deviceAssessment(@Arg('id') id: string, @Ctx() ctx: Ctx): Promise<DeviceAssessmentType> {
    return toType(await service(ctx, 'read').get(id));
  }

  @Query(() => DeviceAssessmentPage, { description: "A user's device assessments, newest first" })
  async deviceAssessmentsByUser(
    @Arg('userId') userId: string,
    @Args() { page, limit }: PageArgs,
    @Ctx() ctx: Ctx,
  ): Promise<DeviceAssessmentPage> {
    const result = await service(ctx, 'read').listByUser(userId, page, limit);
    return { ...result, data: result.data.map(toType) };
  }
}
