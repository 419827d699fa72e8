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

    // documents: what was read, the portrait's face description; number and name searched by blind index
    this.addSql(`alter table verification.document_verifications
      add column extracted_data_sealed text,
      add column face_embedding_sealed text,
      add column document_number_index text`);
    this.addSql(`drop index verification.document_verifications_document_number_idx`);
    this.addSql(`create index document_verifications_document_number_idx
      on verification.document_verifications (organization_id, environment, document_number_index)`);
    // AI identity checks: the same; document_number is redundant with the (sealed) fields
    this.addSql(`alter table verification.cognitive_kyc_checks
      add column document_fields_sealed text,
      add column selfie_embedding_sealed text,
      add column document_number_index text,
      alter column document_fields drop not null,
      alter column selfie_embedding drop not null,
      drop column document_number`);
    this.addSql(`create index cognitive_kyc_checks_document_number_idx
      on verification.cognitive_kyc_checks (organization_id, environment, document_number_index)`);

    // liveness: the photos' face descriptions (reference selfie and frames)
    this.addSql(`alter table verification.liveness_sessions
      add column reference_sealed text,
      add column frames_sealed text,
      alter column frames drop default,
      alter column frames drop not null`);
    // biometric dedup: the enrolled face vector (pgvector's embedding_vector, where present, is the search index)
    this.addSql(`alter table verification.biometric_enrollments
      add column embedding_sealed text,
      alter column embedding drop not null`);
    // phone and email verifications: the address, counted by blind index for the per-address limit
    this.addSql(`alter table verification.otp_verifications
      add column address_sealed text,
      add column address_index text,
      alter column address drop not null`);
    this.addSql(`drop index verification.otp_verifications_address_idx`);
    this.addSql(`create index otp_verifications_address_idx on verification.otp_verifications (kind, address_index, last_sent_at desc)`);
    // mobile money: the number
    this.addSql(`alter table verification.mobile_money_verifications
      add column phone_number_sealed text,
      alter column phone_number drop not null`);
    // dates of birth (and the identity numbers of business people)
    this.addSql(`alter table verification.aml_screenings add column date_of_birth_sealed text`);
    this.addSql(`alter table verification.watchlist_subscriptions add column date_of_birth_sealed text`);
    this.addSql(`alter table verification.business_people add column date_of_birth_sealed text, add column id_number_sealed text`);
  }
}
