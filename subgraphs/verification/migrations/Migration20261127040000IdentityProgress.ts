import { Migration } from '@mikro-orm/migrations';

/** Identity verifications that complete themselves: per-step progress and the records they used. */
export class Migration20261127040000IdentityProgress extends Migration {
  override up(): void {
    this.addSql(`alter table verification.identity_verifications
      add column steps jsonb,
      add column reasons jsonb not null default '[]',
      add column document_verification_id uuid,
      add column liveness_session_id uuid,
      add column aml_screening_id uuid`);
  }
}
