import { Directive, Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ConnectionType } from '../../../../platform/graphql/connection.js';
import { EventEnvelopeType } from '../../../../platform/graphql/event-envelope.js';
import { UserError } from '../../../../platform/graphql/user-errors.js';
import { LIVENESS_STATUSES } from './liveness.lifecycle.js';
import { CHALLENGE_OUTCOMES } from './liveness.entity.js';
import { CHALLENGE_TYPES } from './liveness.rules.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const LivenessStatusEnum = enumOf(LIVENESS_STATUSES);
export const LivenessChallengeTypeEnum = enumOf(CHALLENGE_TYPES);
export const LivenessChallengeOutcomeEnum = enumOf(CHALLENGE_OUTCOMES);
registerEnumType(LivenessStatusEnum, {
  name: 'LivenessStatus',
  description: 'Where a liveness session stands',
  valuesConfig: {
    IN_PROGRESS: { description: 'Open: waiting for the reference selfie and the challenge photos' },
    PASSED: { description: 'A live person, the same in every photo, did every challenge' },
    FAILED: { description: 'The check did not find a live person doing the challenges (see failureReason)' },
    EXPIRED: { description: 'Its life ran out before it was complete (failureReason SESSION_EXPIRED)' },
  },
});
registerEnumType(LivenessChallengeTypeEnum, {
  name: 'LivenessChallengeType',
  description: 'A movement the user is asked to make in front of the camera',
  valuesConfig: {
    TURN_LEFT: { description: 'Turn the head to the user’s own left (photos as the camera sees them, not mirrored)' },
    TURN_RIGHT: { description: 'Turn the head to the user’s own right (photos as the camera sees them, not mirrored)' },
    LOOK_UP: { description: 'Raise the chin and look up' },
    SMILE: { description: 'Smile' },
    BLINK: { description: 'Close both eyes' },
    NOD: { description: 'Nod: two photos with the same challengeId, chin down then chin up' },
  },
});
registerEnumType(LivenessChallengeOutcomeEnum, {
  name: 'LivenessChallengeOutcome',
  description: 'How a challenge was judged',
  valuesConfig: {
    PENDING: { description: 'Waiting for its photo (or a nod’s second photo)' },
    PASSED: { description: 'The photos show the movement' },
    FAILED: { description: 'The photos do not show the movement' },
  },
});

@ObjectType('LivenessReferenceMeasurements', {
  description: 'What the face models read in the reference selfie, for the measures its challenge is judged on',
})
export class LivenessReferenceMeasurementsType {
  @Field(() => Float, { nullable: true, description: 'Head yaw in radians (a turn is judged as the change from it)' })
  headYaw?: number | null;

  @Field(() => Float, { nullable: true, description: 'Head pitch in radians (looking up is judged as the change from it)' })
  headPitch?: number | null;

  @Field(() => Float, { nullable: true, description: 'The emotion model’s smile, 0 to 1' })
  smile?: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Both eyes’ aspect ratio: the lids’ gap over the eye’s width, from the face mesh (a blink is judged as the ratio to it)',
  })
  eyeOpenness?: number | null;

  @Field(() => Float, { nullable: true, description: 'Mouth width over face width' })
  mouthWidth?: number | null;

  @Field(() => Float, { nullable: true, description: 'Mouth corners’ height above the lips’ middle, over face height' })
  mouthCornerLift?: number | null;
}

@ObjectType('LivenessMeasurements', { description: 'What the face models read in a challenge’s photos' })
export class LivenessMeasurementsType {
  @Field(() => Float, { nullable: true, description: 'Head yaw in radians: negative = turned to the user’s own left (unmirrored photo)' })
  headYaw?: number | null;

  @Field(() => Float, { nullable: true, description: 'Head pitch in radians: negative = looking up (a nod: its first photo)' })
  headPitch?: number | null;

  @Field(() => Float, { nullable: true, description: 'A nod: how far the pitch moved between its two photos, radians' })
  pitchChange?: number | null;

  @Field(() => Float, { nullable: true, description: 'The emotion model’s smile, 0 to 1' })
  smile?: number | null;

  @Field(() => Float, { nullable: true, description: 'A smile: mouth width over face width (wider than the reference’s in a smile)' })
  mouthWidth?: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'A smile: mouth corners’ height above the lips’ middle, over face height (higher than the reference’s in a smile)',
  })
  mouthCornerLift?: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      'Both eyes’ aspect ratio: the lids’ gap over the eye’s width, from the face mesh (a blink: at most 0.88 of the reference’s)',
  })
  eyeOpenness?: number | null;

  @Field(() => LivenessReferenceMeasurementsType, {
    nullable: true,
    description:
      'The same measures in the reference selfie, which the challenge is judged against; null when it was judged before the reference arrived (against a typical face: it is judged again when the reference comes)',
  })
  reference?: LivenessReferenceMeasurementsType | null;

  @Field(() => Float, { nullable: true, description: 'Anti-spoofing score of the photo (a nod: the lower of two), 0 to 1' })
  antiSpoofScore?: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'Similarity to the reference selfie (before it arrives: to another challenge’s photo), 0 to 1',
  })
  faceMatchScore?: number | null;
}

@ObjectType('LivenessChallenge', { description: 'One movement the user must make, and how it was judged' })
export class LivenessChallengeType {
  @Field(() => ID, { description: 'Identifier of the challenge within its session (send it with its photo)' })
  id!: string;

  @Field(() => LivenessChallengeTypeEnum, { description: 'The movement' })
  type!: string;

  @Field({ description: 'What to tell the user' })
  instruction!: string;

  @Field(() => LivenessChallengeOutcomeEnum, { description: 'How it was judged' })
  outcome!: string;

  @Field(() => Int, { description: 'Photos it takes: 2 for a nod, 1 otherwise' })
  framesRequired!: number;

  @Field(() => Int, { description: 'Photos received so far' })
  framesReceived!: number;

  @Field(() => Float, { nullable: true, description: 'How clearly the movement was seen, 0 to 1 (0.5 and more passes); null until judged' })
  score?: number | null;

  @Field(() => LivenessMeasurementsType, { nullable: true, description: 'What the models read; null until judged' })
  measured?: LivenessMeasurementsType | null;

  @Field(() => Date, { nullable: true, description: 'When it was judged' })
  completedAt?: Date | null;
}

@ObjectType('LivenessResult', { description: 'The verdict of a finished liveness session' })
export class LivenessResultType {
  @Field({ description: 'A live person, the same in every photo, did every challenge' })
  isAlive!: boolean;

  @Field(() => Float, { nullable: true, description: 'How sure the verdict is, 0.5 to 1 (null for an expired session)' })
  confidence?: number | null;

  @Field(() => Float, { nullable: true, description: 'Anti-spoofing: mean over the session’s photos, 0 to 1 (passes from 0.35)' })
  antiSpoofScore?: number | null;

  @Field(() => Float, {
    nullable: true,
    description: 'The lowest similarity of a challenge photo to the reference selfie, 0 to 1 (passes from 0.6)',
  })
  faceMatchScore?: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'Why it failed: SPOOF_SUSPECTED, FACE_MISMATCH, CHALLENGE_FAILED:<type> or SESSION_EXPIRED; null when alive',
  })
  failureReason?: string | null;
}

@ObjectType('LivenessSession', { description: 'A liveness check: random challenges the user performs in photos, and its verdict' })
@Directive('@key(fields: "id")')
export class LivenessSessionType {
  @Field(() => ID, { description: 'Identifier of the session' })
  id!: string;

  @Field({ description: 'Your identifier of the user it checks' })
  userId!: string;

  @Field(() => LivenessStatusEnum, { description: 'Where it stands' })
  status!: string;

  @Field({ description: 'What to tell the user before starting' })
  instructions!: string;

  @Field(() => [LivenessChallengeType], { description: 'Its 2 or 3 challenges, in the order to perform them' })
  challenges!: LivenessChallengeType[];

  @Field(() => Int, { description: 'Challenges judged so far' })
  challengesCompleted!: number;

  @Field(() => Int, { description: 'Challenges in the session' })
  challengesTotal!: number;

  @Field({ description: 'The reference selfie was received' })
  referenceSelfieReceived!: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      'The reference selfie: a path of this API (`/files/<id>`) served to the organization’s keys with the liveness permission; null before it arrives',
  })
  referenceSelfieUrl!: string | null;

  @Field({ description: 'It is over: PASSED, FAILED or EXPIRED' })
  isComplete!: boolean;

  @Field(() => String, { nullable: true, description: 'What the user should send next; null once it is over' })
  nextStep?: string | null;

  @Field(() => LivenessResultType, { nullable: true, description: 'The verdict; null until it is over' })
  result?: LivenessResultType | null;

  @Field({ description: 'When it stops admitting photos (10 minutes after its start)' })
  expiresAt!: Date;

  @Field({ description: 'When it was started' })
  createdAt!: Date;

  @Field({ description: 'When it last changed' })
  updatedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it ended' })
  completedAt?: Date | null;
}

export const LivenessSessionConnection = ConnectionType('LivenessSession', LivenessSessionType, 'liveness session');

export const LIVENESS_EVENT_DESCRIPTIONS: Record<string, string> = {
  'liveness.created': 'A session was started',
  'liveness.progress': 'A challenge photo was recorded',
  'liveness.reference_recorded': 'The reference selfie was recorded',
  'liveness.passed': 'The session passed',
  'liveness.failed': 'The session failed, or expired (status EXPIRED)',
};
export const LivenessSessionEvent = EventEnvelopeType(
  'LivenessSession',
  LivenessSessionType,
  LIVENESS_EVENT_DESCRIPTIONS,
  'liveness session',
);

@ObjectType('CreateLivenessSessionPayload', { description: 'The result of createLivenessSession' })
export class CreateLivenessSessionPayload {
  @Field(() => LivenessSessionType, { nullable: true, description: 'The new session' })
  livenessSession?: LivenessSessionType | null;

  @Field(() => String, {
    nullable: true,
    description: 'The credential the user’s photos are sent with; shown only here, valid while the session is open',
  })
  sessionToken?: string | null;

  @Field(() => [UserError], { description: 'Mistakes in the input; empty on success' })
  userErrors!: UserError[];
}

@ObjectType('SubmitLivenessChallengePayload', { description: 'The result of submitLivenessChallenge' })
export class SubmitLivenessChallengePayload {
  @Field(() => LivenessSessionType, { nullable: true, description: 'The session with the photo judged (and its verdict once complete)' })
  livenessSession?: LivenessSessionType | null;

  @Field(() => [UserError], {
    description: 'An unusable photo (retry it), an unknown challenge, or a session that is over; empty on success',
  })
  userErrors!: UserError[];
}

@ObjectType('SubmitLivenessReferenceSelfiePayload', { description: 'The result of submitLivenessReferenceSelfie' })
export class SubmitLivenessReferenceSelfiePayload {
  @Field(() => LivenessSessionType, { nullable: true, description: 'The session with its reference (and its verdict once complete)' })
  livenessSession?: LivenessSessionType | null;

  @Field(() => [UserError], {
    description: 'An unusable selfie (retry it), a second selfie, or a session that is over; empty on success',
  })
  userErrors!: UserError[];
}
