import { Property } from '@mikro-orm/decorators/legacy';

/** The reviewer's columns (`reviewed_by`, `review_notes`, `reviewed_at`) of a record a person may decide. */
export abstract class ReviewColumns {
  @Property({ type: 'text', nullable: true })
  reviewedBy?: string | null;

  @Property({ type: 'text', nullable: true })
  reviewNotes?: string | null;

  @Property({ type: 'datetime', nullable: true })
  reviewedAt?: Date | null;
}
