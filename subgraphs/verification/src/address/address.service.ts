import { LockMode } from '@mikro-orm/core';
import { recordAudit, type AuditActor } from '../../../../platform/audit/audit.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import { badInput, invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import type { FilePart } from '../../../../platform/graphql/upload.js';
import { isUuid } from '../../../../platform/ids.js';
import type { FileService } from '../../../../platform/storage/file-store.js';
import { isCountryCode } from '../ip/geolocation.js';
import { readImage } from '../vision/images.js';
import type { AddressDocumentType } from './address-decision.js';
import { AddressVerification } from './address.entity.js';
import { recordAddressEvent } from './address.events.js';
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

export class AddressService {
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
    return this.em.transactional(async (em) => {
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
  }

  find(id: string): Promise<AddressVerification | null> {
    return isUuid(id) ? this.em.findOne(AddressVerification, { id, ...this.tenant }) : Promise.resolve(null);
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
      Object.assign(a, { status, reviewedBy: review.reviewedBy, reviewNotes: review.reviewNotes, reviewedAt: now, completedAt: now });
      await em.flush();
      recordAddressEvent(em, event, a);
      await recordAudit(em, {
        ...tenantColumns(this.tenant),
        action: 'address_verification.reviewed',
        actor,
        reviewer: review.reviewedBy,
        resourceType: 'address_verification',
        resourceId: a.id,
        userId: a.userId,
        details: { decision: review.decision, status: a.status },
      });
      return a;
    });
  }
}
