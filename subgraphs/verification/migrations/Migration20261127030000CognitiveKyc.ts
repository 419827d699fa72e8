import { Migration } from '@mikro-orm/migrations';

/**
 * AI identity checks (the selfie's face vector, never the images) and what the fraud history
 * searches: document numbers and normalised names of checks and of document verifications.
 */
export class Migration20261127030000CognitiveKyc extends Migration {
  override up(): void {
    this.addSql(`create table verification.cognitive_kyc_checks (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      decision text not null,
      confidence double precision not null,
      face_match_score double precision,
      face_match_reasoning text not null,
      document_fields jsonb not null,
      document_number text,
      full_name_key text,
      fraud_indicators jsonb not null,
      prior_verifications integer not null,
      flagged_attempts integer not null,
      risk_level text not null,
      reasons jsonb not null default '[]',
      selfie_embedding jsonb not null,
      reviewed_by text,
      review_notes text,
      reviewed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now())`);
    this.addSql(`create index cognitive_kyc_checks_user_idx
      on verification.cognitive_kyc_checks (organization_id, environment, user_id, created_at desc)`);
    this.addSql(`create index cognitive_kyc_checks_decision_idx
      on verification.cognitive_kyc_checks (organization_id, environment, decision, created_at desc)`);
    this.addSql(`create index cognitive_kyc_checks_document_number_idx
      on verification.cognitive_kyc_checks (organization_id, environment, document_number)`);
    this.addSql(`create index cognitive_kyc_checks_name_idx
      on verification.cognitive_kyc_checks (organization_id, environment, full_name_key)`);
    // documents: the same keys, from their extracted data
    this.addSql(`alter table verification.document_verifications add column full_name_key text`);
    this.addSql(`update verification.document_verifications
      set full_name_key = nullif(btrim(regexp_replace(upper(extracted_data->>'fullName'), '[^A-Z]+', ' ', 'g')), '')
      where extracted_data->>'fullName' is not null`);
    this.addSql(`create index document_verifications_document_number_idx
      on verification.document_verifications (organization_id, environment, (extracted_data->>'documentNumber'))`);
    this.addSql(`create index document_verifications_name_idx
      on verification.document_verifications (organization_id, environment, full_name_key)`);
  }
}
