import { LockMode } from '@mikro-orm/core';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import { auditReview, stampReview } from '../review/review.js';
import type { AuditActor } from '../../../../platform/audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import { badInput, invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import type { FilePart } from '../../../../platform/graphql/upload.js';
import { isUuid } from '../../../../platform/ids.js';
import type { FileService } from '../../../../platform/storage/file-store.js';
import { isCountryCode } from '../../../../platform/countries.js';
import { readImage } from '../vision/images.js';
import type { AddressDocumentType } from './address-decision.js';
import { AddressVerification } from './address.entity.js';
import { addressSnapshot, recordAddressEvent } from './address.events.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import { fileUrl } from '../../../../platform/storage/file-routes.js';
import { pastRetention, RETENTION_CHUNK } from '../../../../platform/privacy/retention.js';
import { expireFiles, updateDroppingFiles } from '../../../../platform/privacy/owned-files.js';
import type pg from 'pg';
import { ADDRESS_LIFECYCLE, type AddressStatus, type AddressTrigger } from './address.lifecycle.js';
import { fetchDocument, type FetchLimits } from './document-fetch.js';

export const ADDRESS_FILE_OWNER = 'address';
const MAX_ADDRESS_LENGTH = 500;

/** Form A (an uploaded `document` and its `country`) or Form B (a `documentUrl`), with the address the user declared. */
export interface AddressSubmission {
  userId: string;
  documentType: AddressDocumentType;
  country?: string | null;
  document?: FilePart | null;
  documentUrl?: string | null;
  /** The address the user declared (REST Form B calls it `declaredAddress`). */
  expectedAddress?: string | null;
}

/** Queues the automatic check of an address document, in the transaction that accepted it. */
export interface AddressJobs {
  enqueueCheck(em: EntityManager, addressId: string): Promise<void>;
  /** A job was committed: its worker fetches it now. */
  wake(): void;
}

export interface AddressReview {
  decision: 'VERIFIED' | 'REJECTED';
  reviewedBy: string;
  reviewNotes: string;
}

/** A URL as kept: without credentials, query string or fragment (a signed URL's token is a secret). */
const keptUrl = (url: string) => {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
};

export class AddressService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: { files: FileService; jobs: AddressJobs; fetch: FetchLimits },
  ) {}

  /**
   * Accepts a proof of address: the document (uploaded, or downloaded from its URL) is checked to
   * be an image of an accepted format by its bytes and stored, the record created PROCESSING and its
   * check queued, all in one transaction.
   */
  async submit(input: AddressSubmission): Promise<AddressVerification> {
    const expected = input.expectedAddress ?? null;
    const errors = [
      ...(input.userId.trim() ? [] : ['userId must not be empty']),
      ...(input.userId.length > 255 ? ['userId must be at most 255 characters'] : []),
      ...(input.country != null && !isCountryCode(input.country) ? ['country must be an uppercase ISO 3166-1 alpha-2 country code'] : []),
      ...(expected != null && expected.length > MAX_ADDRESS_LENGTH
        ? [`expectedAddress must be at most ${MAX_ADDRESS_LENGTH} characters`]
        : []),
    ];
    if (errors.length) throw invalid(errors);
    if (input.document && input.documentUrl) throw badInput('Send either document (an upload, with country) or documentUrl, not both');
    if (!input.document && !input.documentUrl) throw badInput('document (an upload) or documentUrl is required');
    if (input.document && input.country == null) throw badInput('country is required with an uploaded document');
    const bytes = input.document ? input.document.bytes : await fetchDocument(input.documentUrl!, this.deps.fetch);
    const image = await readImage(bytes, input.document ? 'document' : 'documentUrl');
    const submitted = await this.em.transactional(async (em) => {
      const created = ADDRESS_LIFECYCLE.fire(null, 'created');
      const address = em.create(AddressVerification, {
        ...this.tenant,
        userId: input.userId.trim(),
        documentType: input.documentType,
        country: input.country ?? null,
        status: created.status,
        documentSource: input.document ? 'UPLOAD' : 'URL',
        documentUrl: input.documentUrl ? keptUrl(input.documentUrl) : null,
        expectedAddress: expected?.trim() || null,
        fileId: '',
      });
      const file = await this.deps.files.store(sqlOf(em), this.tenant, {
        ownerType: ADDRESS_FILE_OWNER,
        userId: address.userId,
        ownerId: address.id,
        role: 'document',
        contentType: 'image/jpeg',
        bytes: image.jpeg,
      });
      address.fileId = file.id;
      await em.flush();
      recordAddressEvent(em, created.event, address);
      await this.deps.jobs.enqueueCheck(em, address.id);
      return address;
    });
    this.deps.jobs.wake();
    return submitted;
  }

  /** The user's proofs of address with what was read, the image as a link (served to the organization only). */
  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(AddressVerification, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return all.map((a) => ({ ...addressSnapshot(a), documentImageUrl: a.documentDeletedAt ? null : fileUrl(a.fileId) }));
  }

  /** The document (image, URL), the addresses (declared and read) and the comparison quoting them go; the outcome stays. */
  eraseUser(user: ErasedUser): Promise<number> {
    return updateDroppingFiles(
      sqlOf(this.em),
      this.deps.files,
      ADDRESS_FILE_OWNER,
      `update verification.address_verifications
          set user_id = $4, document_url = null, expected_address = null, extracted_data = null, address_match_explanation = null,
              review_notes = null, document_deleted_at = coalesce(document_deleted_at, now())
        where organization_id = $1 and environment = $2 and user_id = $3 returning id`,
      [this.tenant.organizationId, this.tenant.environment, user.userId, user.pseudonym],
    );
  }

  /** Retention: the images of every organization's proofs of address past its `documents` period (the records stay). */
  static expireDocuments(pool: pg.Pool, files: FileService): Promise<number> {
    return expireFiles(
      pool,
      files,
      ADDRESS_FILE_OWNER,
      `update verification.address_verifications set document_deleted_at = now()
        where id in (select a.id from verification.address_verifications a
                      where a.document_deleted_at is null and a.status <> 'PROCESSING' and ${pastRetention('documents', 'a', 'created_at')}
                      limit ${RETENTION_CHUNK} for update skip locked)
        returning id`,
    );
  }

  find(id: string): Promise<AddressVerification | null> {
    return isUuid(id) ? findOneBy(this.em, AddressVerification, { id, ...this.tenant }) : Promise.resolve(null);
  }

  async get(id: string): Promise<AddressVerification> {
    const address = await this.find(id);
    if (!address) throw notFound('Address verification', id);
    return address;
  }

  /** The organization's address verifications (of one user, in one status), newest first. */
  list(filter: { userId?: string | null; status?: AddressStatus | null }, page: ConnectionArgs): Promise<Connection<AddressVerification>> {
    return paginate(
      this.em,
      AddressVerification,
      {
        ...(filter.userId != null && { userId: filter.userId }),
        ...(filter.status != null && { status: filter.status }),
        // last: a session's user wins over the filter's
        ...this.tenant,
      },
      page,
    );
  }

  /** A reviewer's decision, from MANUAL_REVIEW only (else CONFLICT, 409). */
  async review(id: string, review: AddressReview, actor: AuditActor): Promise<AddressVerification> {
    await this.get(id);
    return this.em.transactional(async (em) => {
      const a = await em.findOneOrFail(
        AddressVerification,
        { id, ...this.tenant },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      const trigger: AddressTrigger = review.decision === 'VERIFIED' ? 'review.verified' : 'review.rejected';
      const { status, event } = ADDRESS_LIFECYCLE.fire(a.status, trigger);
      const now = new Date();
      Object.assign(a, { status, completedAt: now });
      stampReview(a, review, now);
      await em.flush();
      recordAddressEvent(em, event, a);
      await auditReview(em, { tenant: this.tenant, actor, review, record: a, resourceType: 'address_verification', status: a.status });
      return a;
    });
  }
}
