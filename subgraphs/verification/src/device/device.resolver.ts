import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { UserType } from '../user/user.type.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { VerificationContext } from '../verification.shared.js';
import type { IpDeps } from '../ip/ip.service.js';
import { isoCountry } from '../ip/ip.type.js';
import { DeviceService } from './device.service.js';
import type { DeviceAssessment } from './device.entity.js';
import {
  AssessDeviceInput,
  AssessDevicePayload,
  DeviceAssessmentConnection,
  DeviceAssessmentFilter,
  DeviceAssessmentType,
  DeviceTypeEnum,
} from './device.type.js';

type Ctx = VerificationContext<IpDeps>;

function service(ctx: Ctx, access: 'read' | 'write'): DeviceService {
  const tenant = authorize(ctx, 'verification', `intelligence:${access}`);
  return new DeviceService(ctx.em, tenant, ctx.deps.ipIntelligence, ctx.deps.ipIntelligence.db);
}

const DEVICE_TYPES: readonly string[] = Object.values(DeviceTypeEnum);

function toType(a: DeviceAssessment): DeviceAssessmentType {
  const parsed = a.fingerprint.parsed ?? { browser: null, os: null, deviceType: null, vendor: null, model: null };
  return {
    ...a,
    location: a.location && { ...a.location, country: isoCountry(a.location.country) },
    // a device type a newer user-agent parser knows and the enum does not yet is unknown (null)
    device: { ...parsed, deviceType: parsed.deviceType && DEVICE_TYPES.includes(parsed.deviceType) ? parsed.deviceType : null },
  };
}

@Resolver()
export class DeviceResolver {
  @Mutation(() => AssessDevicePayload, {
    description: 'Assesses a user’s device from its browser fingerprint: a stable device id, signals, and a risk score with its reasons',
  })
  async assessDevice(
    @Arg('input', { description: 'The user, the session and the browser fingerprint' }) input: AssessDeviceInput,
    @Ctx() ctx: Ctx,
  ) {
    const assessment = await service(ctx, 'write').assess({
      userId: input.userId,
      sessionId: input.sessionId,
      fingerprint: { ...input.fingerprint, ip: input.ip ?? input.fingerprint.ip },
      detectedIp: ctx.clientIp,
    });
    return { deviceAssessment: toType(assessment) };
  }

  @Query(() => DeviceAssessmentType, {
    nullable: true,
    description: 'One device assessment, or the latest of one device; null when there is none',
  })
  async deviceAssessment(
    @Arg('id', () => ID, { description: 'An assessment’s identifier, or a device’s dfp_… identifier (its latest assessment)' }) id: string,
    @Ctx() ctx: Ctx,
  ) {
    const found = await service(ctx, 'read').find(id);
    return found && toType(found);
  }

  @Directive(LIST_SIZE)
  @Query(() => DeviceAssessmentConnection, { description: 'The organization’s device assessments, newest first, or one user’s' })
  deviceAssessments(
    @Arg('filter', () => DeviceAssessmentFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: DeviceAssessmentFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return service(ctx, 'read').list(filter ?? {}, page, toType);
  }
}

/** The user's device assessments, as fields of `User`. */
@Resolver(() => UserType)
export class DeviceUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => DeviceAssessmentConnection, { description: 'The user’s device assessments, newest first' })
  deviceAssessments(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new DeviceResolver().deviceAssessments({ userId: user.id }, page, ctx);
  }
}
