import { Arg, Args, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Subscription } from 'type-graphql';
import { Root } from '../../../../platform/graphql/root.js';
import { actorOf } from '../../../../platform/audit/audit.js';
import { ConnectionArgs, LIST_SIZE } from '../../../../platform/graphql/connection.js';
import { envelopeOf, reviveDates } from '../../../../platform/graphql/event-envelope.js';
import { authorize, tenantEvents } from '../../../../platform/graphql/tenancy.js';
import { readUpload } from '../../../../platform/graphql/upload.js';
import { fileUrl } from '../../../../platform/storage/file-routes.js';
import type { StreamedEvent } from '../../../../platform/events/event-stream.js';
import type { VerificationContext } from '../verification.shared.js';
import type { DocumentDeps } from './document.service.js';
import { UserType } from '../user/user.type.js';
import { DOCUMENT_RESOURCE } from './document.events.js';
import { readImage } from '../vision/images.js';
import { assessImage } from './image-assessment.js';
import {
  AssessDocumentImageInput,
  CreateDocumentVerificationInput,
  DeleteDocumentVerificationImagesInput,
  DocumentVerificationFilter,
  ReviewDocumentVerificationInput,
} from './document.inputs.js';
import { DocumentService } from './document.service.js';
import {
  AssessDocumentImagePayload,
  CreateDocumentVerificationPayload,
  DeleteDocumentVerificationImagesPayload,
  DocumentVerificationConnection,
  DocumentVerificationEvent,
  DocumentVerificationType,
  ReviewDocumentVerificationPayload,
} from './document.type.js';

type Ctx = VerificationContext<DocumentDeps>;

/** `submit` creates a document (for a session token, only for its own user: `forUser`); `write` also reviews and deletes. */
export function documentService(ctx: Ctx, access: 'read' | 'submit' | 'write', forUser?: string): DocumentService {
  return new DocumentService(ctx.em, authorize(ctx, 'verification', `document:${access}`, forUser), {
    files: ctx.deps.files,
    jobs: ctx.deps.documentJobs,
  });
}

const fromSnapshot = (s: Record<string, unknown>) =>
  reviveDates<DocumentVerificationType>(s, ['verifiedAt', 'checkedAt', 'reviewedAt', 'imagesDeletedAt', 'createdAt', 'updatedAt']);

/** Events of one record (`id`), of one user (`userId`) or of the whole organization. */
const subscribe =
  (filter: 'resourceId' | 'userId' | 'organization') =>
  ({ args, context }: { args: Record<string, string>; context: unknown }) =>
    tenantEvents(
      context as Ctx,
      { service: 'verification', permission: 'document:read' },
      DOCUMENT_RESOURCE,
      filter === 'organization' ? {} : { [filter]: args[filter === 'resourceId' ? 'id' : 'userId'] },
    );

@Resolver(() => DocumentVerificationType)
export class DocumentResolver {
  @Query(() => DocumentVerificationType, { nullable: true, description: 'One document verification; null when there is none with this id' })
  documentVerification(@Arg('id', () => ID, { description: 'Its identifier' }) id: string, @Ctx() ctx: Ctx) {
    return documentService(ctx, 'read').find(id);
  }

  @Directive(LIST_SIZE)
  @Query(() => DocumentVerificationConnection, {
    description: 'The organization’s document verifications, newest first: of one user, or in one status (the review queue)',
  })
  documentVerifications(
    @Arg('filter', () => DocumentVerificationFilter, { nullable: true, description: 'Which ones; all when absent' })
    filter: DocumentVerificationFilter | null,
    @Args() page: ConnectionArgs,
    @Ctx() ctx: Ctx,
  ) {
    return documentService(ctx, 'read').list(filter ?? {}, page);
  }

  @FieldResolver(() => UserType, { description: 'The user whose document it is' })
  user(@Root() d: DocumentVerificationType): UserType {
    return { id: d.userId };
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Where the front image is served (GET with your API key; only to your organization); null once deleted',
  })
  frontImageUrl(@Root() d: DocumentVerificationType): string | null {
    return d.imagesDeletedAt ? null : fileUrl(d.frontFileId);
  }

  @FieldResolver(() => String, { nullable: true, description: 'Where the back image is served; null without one or once deleted' })
  backImageUrl(@Root() d: DocumentVerificationType): string | null {
    return d.imagesDeletedAt || !d.backFileId ? null : fileUrl(d.backFileId);
  }

  @Mutation(() => CreateDocumentVerificationPayload, {
    description: 'Submits an identity document (images as multipart uploads); it is created PENDING and checked in the background',
  })
  async createDocumentVerification(@Arg('input') input: CreateDocumentVerificationInput, @Ctx() ctx: Ctx) {
    const service = documentService(ctx, 'submit', input.userId);
    const documentVerification = await service.submit({
      ...input,
      frontImage: await readUpload(input.frontImage, 'frontImage'),
      backImage: input.backImage ? await readUpload(input.backImage, 'backImage') : null,
    });
    return { documentVerification };
  }

  @Mutation(() => AssessDocumentImagePayload, {
    description:
      'Judges a photo of a document as the check would (sharpness, light, reflections, size) without storing anything: a capture page’s feedback before upload',
  })
  async assessDocumentImage(@Arg('input') input: AssessDocumentImageInput, @Ctx() ctx: Ctx) {
    authorize(ctx, 'verification', 'document:submit');
    const image = await readImage((await readUpload(input.image, 'image')).bytes, 'image');
    return { assessment: await assessImage(image.jpeg) };
  }

  @Mutation(() => ReviewDocumentVerificationPayload, {
    description: 'Records a reviewer’s decision on a document in MANUAL_REVIEW (otherwise a CONFLICT user error)',
  })
  async reviewDocumentVerification(@Arg('input') input: ReviewDocumentVerificationInput, @Ctx() ctx: Ctx) {
    return { documentVerification: await documentService(ctx, 'write').review(input.id, input, actorOf(ctx.principal)) };
  }

  @Mutation(() => DeleteDocumentVerificationImagesPayload, {
    description: 'Deletes a document’s images for good; the record, its decision and the extracted data stay',
  })
  async deleteDocumentVerificationImages(@Arg('input') input: DeleteDocumentVerificationImagesInput, @Ctx() ctx: Ctx) {
    return { documentVerification: await documentService(ctx, 'write').deleteImages(input.id) };
  }

  @Subscription(() => DocumentVerificationEvent, {
    description: 'Every change of one document verification',
    subscribe: subscribe('resourceId'),
  })
  documentVerificationUpdated(
    @Root() event: StreamedEvent,
    @Arg('id', () => ID, { description: 'The document verification to follow' }) _id: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => DocumentVerificationEvent, {
    description: 'Every change of every document verification of one user, present and future',
    subscribe: subscribe('userId'),
  })
  documentVerificationUpdatedForUser(
    @Root() event: StreamedEvent,
    @Arg('userId', { description: 'The user whose documents to follow' }) _userId: string,
  ) {
    return envelopeOf(event, fromSnapshot);
  }

  @Subscription(() => DocumentVerificationEvent, {
    description:
      'Every change of every document verification of the organization (a session token: of its user), present and future: a review queue’s feed, records entering MANUAL_REVIEW and leaving it',
    subscribe: subscribe('organization'),
  })
  documentVerificationUpdatedForOrganization(@Root() event: StreamedEvent) {
    return envelopeOf(event, fromSnapshot);
  }
}

/** Federation: other subgraphs reference a document verification by id (tenant-checked). */
export function resolveDocumentReference(ref: { id: string }, ctx: Ctx) {
  return documentService(ctx, 'read').find(ref.id);
}

/** The user's documents, as fields of `User`. */
@Resolver(() => UserType)
export class DocumentUserFields {
  @Directive(LIST_SIZE)
  @FieldResolver(() => DocumentVerificationConnection, { description: 'The user’s identity documents and their checks, newest first' })
  documents(@Root() user: UserType, @Args() page: ConnectionArgs, @Ctx() ctx: Ctx) {
    return documentService(ctx, 'read').list({ userId: user.id }, page);
  }
}
