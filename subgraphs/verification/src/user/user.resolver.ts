import { Arg, Args, Ctx, Directive, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import type { SubgraphContext } from '../../../../platform/graphql/subgraph.js';
import { authorize } from '../../../../platform/graphql/tenancy.js';
import type { VerificationDeps } from '../deps.js';
import { IdentityService } from '../identity/identity.service.js';
import { IdentityVerificationConnection, IdentityVerificationType } from '../identity/identity.type.js';
import { visibleUser } from '../../../../platform/graphql/user.js';
import { UserType } from './user.type.js';
import { AmlResolver } from '../aml/aml.resolver.js';
import { AmlScreeningConnection } from '../aml/aml.type.js';
import { DeviceResolver } from '../device/device.resolver.js';
import { DeviceAssessmentConnection } from '../device/device.type.js';
import { IpResolver } from '../ip/ip.resolver.js';
import { IpAnalysisConnection } from '../ip/ip.type.js';
import { WatchlistAlertResolver, WatchlistSubscriptionResolver } from '../watchlist/watchlist.resolver.js';
import { WatchlistAlertConnection, WatchlistSubscriptionConnection } from '../watchlist/watchlist.type.js';
import { documentService } from '../document/document.resolver.js';
import { DocumentVerificationConnection } from '../document/document.type.js';
import { LivenessResolver } from '../liveness/liveness.resolver.js';
import { LivenessSessionConnection } from '../liveness/liveness.type.js';
import { dedupService } from '../biometrics/dedup.resolver.js';
import { BiometricEnrollmentType } from '../biometrics/dedup.type.js';
import { cognitiveKycService } from '../cognitive-kyc/cognitive-kyc.resolver.js';
import { CognitiveKycCheckConnection } from '../cognitive-kyc/cognitive-kyc.type.js';
import { mobileMoneyService } from '../mobile-money/mobile-money.resolver.js';
import { MobileMoneyVerificationConnection } from '../mobile-money/mobile-money.type.js';
import { addressService } from '../address/address.resolver.js';
import { AddressVerificationConnection } from '../address/address.type.js';
import { EmailVerificationResolver, PhoneVerificationResolver } from '../otp/otp.resolver.js';
import { EmailVerificationConnection, PhoneVerificationConnection } from '../otp/otp.type.js';
import { businessService, toBusiness } from '../business/business.resolver.js';
import { BusinessVerificationConnection } from '../business/business.type.js';

type Ctx = SubgraphContext<VerificationDeps>;

const identities = (ctx: Ctx) => new IdentityService(ctx.em, authorize(ctx, 'verification', 'identity:read'));

@Resolver(() => UserType)
export class UserResolver {
  @Query(() => UserType, {
    nullable: true,
    description: 'One of your users, to read everything held about them in one query (null for a user a session token may not see)',
  })
  user(@Arg('id', () => ID, { description: 'Your identifier of the user' }) id: string, @Ctx() ctx: Ctx) {
    return visibleUser(id, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => IdentityVerificationConnection, { description: 'The user’s identity verifications, newest first' })
  identityVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return identities(ctx).list({ userId: user.id }, page);
  }

  @FieldResolver(() => IdentityVerificationType, {
    nullable: true,
    description: 'The user’s current identity verification: the newest one not replaced by a restart',
  })
  currentIdentityVerification(@Root() user: UserType, @Ctx() ctx: Ctx) {
    return identities(ctx).current(user.id);
  }

  // what the other capabilities hold about the user: their own lists, filtered on the user
  @Directive(LIST_SIZE)
  @FieldResolver(() => DocumentVerificationConnection, { description: 'The user’s identity documents and their checks, newest first' })
  documents(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return documentService(ctx, 'read').list({ userId: user.id }, page);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => CognitiveKycCheckConnection, {
    description: 'The user’s AI identity checks (selfie against document), newest first',
  })
  cognitiveKycChecks(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return cognitiveKycService(ctx, 'read').list({ userId: user.id }, page);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => MobileMoneyVerificationConnection, { description: 'The user’s mobile money account verifications, newest first' })
  mobileMoneyVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return mobileMoneyService(ctx, 'read').list({ userId: user.id }, page);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => AddressVerificationConnection, { description: 'The user’s address verifications (proofs of address), newest first' })
  addressVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return addressService(ctx, 'read').list({ userId: user.id }, page);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => BusinessVerificationConnection, {
    description: 'The businesses the user declared for verification (KYB), newest first',
  })
  async businessVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    const found = await businessService(ctx, 'read').list({ userId: user.id }, page);
    const edges = found.edges.map((edge) => ({ cursor: edge.cursor, node: toBusiness(edge.node) }));
    return { ...found, edges, nodes: edges.map((edge) => edge.node) };
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => AmlScreeningConnection, { description: 'The user’s AML screenings, newest first' })
  amlScreenings(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new AmlResolver().amlScreenings({ userId: user.id }, page, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => WatchlistSubscriptionConnection, { description: 'The user’s watchlist subscriptions, newest first' })
  watchlistSubscriptions(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new WatchlistSubscriptionResolver().watchlistSubscriptions({ userId: user.id }, page, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => WatchlistAlertConnection, { description: 'The watchlist alerts raised for the user, newest first' })
  watchlistAlerts(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new WatchlistAlertResolver().watchlistAlerts({ userId: user.id }, page, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => DeviceAssessmentConnection, { description: 'The user’s device assessments, newest first' })
  deviceAssessments(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new DeviceResolver().deviceAssessments({ userId: user.id }, page, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => IpAnalysisConnection, { description: 'The IP analyses made for the user, newest first' })
  ipAnalyses(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new IpResolver().ipAnalyses({ userId: user.id }, page, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => LivenessSessionConnection, { description: 'The user’s liveness sessions, newest first' })
  livenessSessions(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new LivenessResolver().livenessSessions({ userId: user.id }, page, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => PhoneVerificationConnection, { description: 'The user’s phone verifications, newest first' })
  phoneVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new PhoneVerificationResolver().phoneVerifications({ userId: user.id }, page, ctx);
  }

  @Directive(LIST_SIZE)
  @FieldResolver(() => EmailVerificationConnection, { description: 'The user’s email verifications, newest first' })
  emailVerifications(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return new EmailVerificationResolver().emailVerifications({ userId: user.id }, page, ctx);
  }

  @FieldResolver(() => BiometricEnrollmentType, {
    nullable: true,
    description: 'The user’s enrolled face for biometric dedup (when and from which check; never the face itself); null when none',
  })
  biometricEnrollment(@Root() user: UserType, @Ctx() ctx: Ctx) {
    return dedupService(ctx, 'read').enrollment(user.id);
  }
}
