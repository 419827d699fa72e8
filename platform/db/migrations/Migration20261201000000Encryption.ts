import { Migration } from '@mikro-orm/migrations';

/**
 * Envelope encryption (platform/crypto): each organization's data keys (versioned, wrapped by the
 * master key), the platform's blind-index key, the key version of each stored file, and the sealed
 * columns (`…_sealed`: `enc:v<version>:…` text) with their blind indexes. The plaintext columns
 * they replace stay for rows written before; the backfill at start (`sealLegacyColumns`) moves
 * them into the sealed ones and empties them.
 */
export class Migration20261201000000Encryption extends Migration {
  override up(): void {
    this.addSql(`create table platform.data_keys (
      organization_id uuid not null,
      version integer not null check (version > 0),
      wrapped_key bytea not null,
      master_key_id text not null,
      created_at timestamptz not null default now(),
      rewrapped_at timestamptz,
      primary key (organization_id, version))`);
    this.addSql(`create table platform.blind_index_key (
      id smallint primary key check (id = 1),
      wrapped_key bytea not null,
      master_key_id text not null,
      created_at timestamptz not null default now())`);
    // null: stored before encryption (plaintext until re-encrypted)
    this.addSql(`alter table platform.files add column key_version integer`);

    // Each personal column becomes `<column>_sealed` (with blind indexes where it is searched); the
    // plaintext column is renamed `<column>_plaintext`, nullable, for the backfill to empty
    const sealed: Array<[table: string, columns: string[]]> = [
      ['verification.document_verifications', ['extracted_data', 'face_embedding']],
      ['verification.cognitive_kyc_checks', ['document_fields', 'selfie_embedding']],
      ['verification.liveness_sessions', ['reference', 'frames']],
      ['verification.biometric_enrollments', ['embedding']],
      ['verification.otp_verifications', ['address']],
      ['verification.mobile_money_verifications', ['phone_number']],
      ['verification.aml_screenings', ['date_of_birth']],
      ['verification.watchlist_subscriptions', ['date_of_birth']],
      ['verification.business_people', ['date_of_birth', 'id_number']],
      ['notify.recipients', ['email', 'phone']],
    ];
    for (const [table, columns] of sealed) {
      for (const column of columns) {
        this.addSql(`alter table ${table} rename column ${column} to ${column}_plaintext`);
        this.addSql(`alter table ${table} alter column ${column}_plaintext drop not null, alter column ${column}_plaintext drop default,
          add column ${column}_sealed text`);
      }
    }

    // documents and AI identity checks: the number and the name are searched by blind index
    // (full_name_key holds one from now on; the backfill recomputes it)
    this.addSql(`alter table verification.document_verifications add column document_number_index text`);
    this.addSql(`drop index verification.document_verifications_document_number_idx`);
    this.addSql(`create index document_verifications_document_number_idx
      on verification.document_verifications (organization_id, environment, document_number_index)`);
    // the AI check's document_number repeated its (now sealed) fields
    this.addSql(`alter table verification.cognitive_kyc_checks add column document_number_index text, drop column document_number`);
    this.addSql(`create index cognitive_kyc_checks_document_number_idx
      on verification.cognitive_kyc_checks (organization_id, environment, document_number_index)`);
    // phone and email verifications: the per-address send limit counts by blind index (across organizations)
    this.addSql(`alter table verification.otp_verifications add column address_index text`);
    this.addSql(`drop index verification.otp_verifications_address_idx`);
    this.addSql(`create index otp_verifications_address_idx on verification.otp_verifications (kind, address_index, last_sent_at desc)`);
  }
}
