import { LockMode } from '@mikro-orm/core';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { auditReview, stampReview } from '../review/review.js';
import type { AuditActor } from '../../../../platform/audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import type pg from 'pg';
import { sqlOf } from '../../../../platform/db/transaction.js';
import { badInput, invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import type { FilePart } from '../../../../platform/graphql/upload.js';
import { isUuid } from '../../../../platform/ids.js';
import type { FileService } from '../../../../platform/storage/file-store.js';
import { isCountryCode } from '../../../../platform/countries.js';
import { readImage } from '../vision/images.js';
import type { DocumentType } from './document-check.js';
import { DocumentVerification } from './document.entity.js';
import { documentSnapshot, recordDocumentEvent } from './document.events.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import { fileUrl } from '../../../../platform/storage/file-routes.js';
import { pastRetention, RETENTION_CHUNK } from '../../../../platform/privacy/retention.js';
import { expireFiles, updateDroppingFiles } from '../../../../platform/privacy/owned-files.js';
import { DOCUMENT_LIFECYCLE, type DocumentStatus, type DocumentTrigger } from './document.lifecycle.js';

export const DOCUMENT_FILE_OWNER = 'document';

export interface DocumentSubmission {
  userId: string;
  documentType: DocumentType;
  documentCountry: string;
  frontImage: FilePart;
  backImage?: FilePart | null;
}

/** Queues the automatic check of a document, in the transaction that created it. */
/** What the document capability builds at start: its check queue (an AI identity check reads documents too). */
export interface DocumentDeps {
  documentJobs: DocumentJobs;
}

export interface DocumentJobs {
  enqueueCheck(em: EntityManager, documentId: string): Promise<void>;
  /** A job was committed: its worker fetches it now. */
  wake(): void;
}

export interface DocumentReview {
  decision: 'VERIFIED' | 'REJECTED';
  reviewedBy: string;
  reviewNotes: string;
}

export class DocumentService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: { files: FileService; jobs: DocumentJobs },
  ) {}

  /**
   * Accepts a document: the images are checked (real images of an accepted format, by their bytes)
   * and stored, the record created PENDING and its check queued, all in one transaction.
   */
  async submit(input: DocumentSubmission): Promise<DocumentVerification> {
    const errors = [
      ...(input.userId.trim() ? [] : ['userId must not be empty']),
      ...(input.userId.length > 255 ? ['userId must be at most 255 characters'] : []),
      ...(isCountryCode(input.documentCountry) ? [] : ['documentCountry must be an uppercase ISO 3166-1 alpha-2 country code']),
    ];
    if (errors.length) throw invalid(errors);
    if (!input.backImage && input.documentType !== 'PASSPORT') {
      throw badInput(`backImage is required for ${input.documentType} (every document type but PASSPORT has a back)`);
    }
    const front = await readImage(input.frontImage.bytes, 'frontImage');
    const back = input.backImage ? await readImage(input.backImage.bytes, 'backImage') : null;
    const submitted = await this.em.transactional(async (em) => {
      const created = DOCUMENT_LIFECYCLE.fire(null, 'created');
      const document = em.create(DocumentVerification, {
        ...this.tenant,
        userId: input.userId.trim(),
        documentType: input.documentType,
        documentCountry: input.documentCountry,
        status: created.status,
        frontFileId: '',
      });
      const store = (role: string, jpeg: Buffer) =>
        this.deps.files.store(sqlOf(em), this.tenant, {
          ownerType: DOCUMENT_FILE_OWNER,
          userId: document.userId,
          ownerId: document.id,
          role,
          contentType: 'image/jpeg',
          bytes: jpeg,
        });
      document.frontFileId = (await store('front', front.jpeg)).id;
      document.backFileId = back ? (await store('back', back.jpeg)).id : null;
      await em.flush();
      recordDocumentEvent(em, created.event, document);
      await this.deps.jobs.enqueueCheck(em, document.id);
      return document;
    });
    this.deps.jobs.wake();
    return submitted;
  }

  find(id: string): Promise<DocumentVerification | null> {
    return isUuid(id) ? findOneBy(this.em, DocumentVerification, { id, ...this.tenant }) : Promise.resolve(null);
  }

  async get(id: string): Promise<DocumentVerification> {
    const document = await this.find(id);
    if (!document) throw notFound('Document verification', id);
    return document;
  }

  /** The organization's documents (of one user, in one status), newest first. */
  list(
    filter: { userId?: string | null; status?: DocumentStatus | null },
    page: ConnectionArgs,
  ): Promise<Connection<DocumentVerification>> {
    return paginate(
      this.em,
      DocumentVerification,
      {
        ...(filter.userId != null && { userId: filter.userId }),
        ...(filter.status != null && { status: filter.status }),
        // last: a session's user wins over the filter's
        ...this.tenant,
      },
      page,
    );
  }

  /** The user's newest document verification, or null. */
  latestOf(userId: string): Promise<DocumentVerification | null> {
    return this.em.findOne(DocumentVerification, { userId, ...this.tenant }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /**
   * The organization's documents of a user, of a document number (as read) or of a name (its
   * `nameKey`) — both by their blind index —, newest first, at most `limit`; none when nothing is asked.
   */
  matching(search: { userId?: string | null; documentNumberIndex?: string | null; fullNameKey?: string | null }, limit: number) {
    const any = [
      ...(search.userId ? [{ userId: search.userId }] : []),
      ...(search.documentNumberIndex ? [{ documentNumberIndex: search.documentNumberIndex }] : []),
      ...(search.fullNameKey ? [{ fullNameKey: search.fullNameKey }] : []),
    ];
    if (!any.length) return Promise.resolve([]);
    return this.em.find(DocumentVerification, { $or: any, ...this.tenant }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  }

  /** The user's documents with what was read from them, their images as links (served to the organization only). */
  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(DocumentVerification, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return all.map((d) => ({
      ...documentSnapshot(d),
      frontImageUrl: d.imagesDeletedAt ? null : fileUrl(d.frontFileId),
      backImageUrl: d.imagesDeletedAt || !d.backFileId ? null : fileUrl(d.backFileId),
    }));
  }

  /** The images go for good, and what was read from them (fields, the portrait's face description); the decision stays. */
  eraseUser(user: ErasedUser): Promise<number> {
    return updateDroppingFiles(
      sqlOf(this.em),
      this.deps.files,
      DOCUMENT_FILE_OWNER,
      `update verification.document_verifications
          set user_id = $4, extracted_data_plaintext = null, extracted_data_sealed = null, document_number_index = null, full_name_key = null,
              face_embedding_plaintext = null, face_embedding_sealed = null, review_notes = null,
              images_deleted_at = coalesce(images_deleted_at, now())
        where organization_id = $1 and environment = $2 and user_id = $3 returning id`,
      [this.tenant.organizationId, this.tenant.environment, user.userId, user.pseudonym],
    );
  }

  /** A reviewer's decision, recorded in the audit trail with it (`actor`: the key or session that sent it). */
  review(id: string, review: DocumentReview, actor: AuditActor): Promise<DocumentVerification> {
    return this.apply(
      id,
      review.decision === 'VERIFIED' ? 'review.verified' : 'review.rejected',
      (d, now) => {
        stampReview(d, review, now);
        if (review.decision === 'VERIFIED') d.verifiedAt = now;
      },
      (em, d) =>
        auditReview(em, { tenant: this.tenant, actor, review, record: d, resourceType: 'document_verification', status: d.status }),
    );
  }

  /** Deletes the document's images (the bytes; the record and its extracted data stay). */
  async deleteImages(id: string): Promise<DocumentVerification> {
    const document = await this.get(id);
    for (const fileId of [document.frontFileId, document.backFileId]) {
      if (fileId) await this.deps.files.delete(this.tenant, fileId);
    }
    return this.apply(id, 'images.deleted', (d, now) => {
      d.imagesDeletedAt ??= now;
    });
  }

  /** Retention: the images of every organization's documents past its `documents` period are deleted (the records stay). */
  static expireImages(pool: pg.Pool, files: FileService): Promise<number> {
    return expireFiles(
      pool,
      files,
      DOCUMENT_FILE_OWNER,
      `update verification.document_verifications set images_deleted_at = now()
        where id in (select d.id from verification.document_verifications d
                      where d.images_deleted_at is null and ${pastRetention('documents', 'd', 'created_at')}
                      limit ${RETENTION_CHUNK} for update skip locked)
        returning id`,
    );
  }

  /** Every status change: lock, check the lifecycle table, change, record the event — one transaction. */
  private async apply(
    id: string,
    trigger: DocumentTrigger,
    change: (d: DocumentVerification, now: Date) => void,
    audit?: (em: EntityManager, d: DocumentVerification) => Promise<void>,
  ): Promise<DocumentVerification> {
    await this.get(id);
    return this.em.transactional(async (em) => {
      const d = await em.findOneOrFail(
        DocumentVerification,
        { id, ...this.tenant },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      const { status, event } = DOCUMENT_LIFECYCLE.fire(d.status, trigger);
      change(d, new Date());
      d.status = status;
      await em.flush();
      recordDocumentEvent(em, event, d);
      await audit?.(em, d);
      return d;
    });
  }
}
