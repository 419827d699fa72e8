import { Migration } from '@mikro-orm/migrations';

/** Liveness sessions: challenges, photos' readings and face descriptions, the verdict. */
export class Migration20261127010000Liveness extends Migration {
  override up(): void {
    this.addSql(`create table verification.liveness_sessions (
      id uuid primary key,
      organization_id uuid not null,
      environment text not null,
      user_id text not null,
      session_token text not null,
      status text not null,
      challenges jsonb not null,
      reference jsonb,
      frames jsonb not null default '[]',
      is_alive boolean,
      confidence double precision,
      anti_spoof_score double precision,
      face_match_score double precision,
      failure_reason text,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz)`);
    this.addSql(`create unique index liveness_sessions_token_idx on verification.liveness_sessions (session_token)`);
    this.addSql(`create index liveness_sessions_user_idx
      on verification.liveness_sessions (organization_id, environment, user_id, created_at desc)`);
    // the expiry sweep looks only at open sessions
    this.addSql(`create index liveness_sessions_open_idx on verification.liveness_sessions (expires_at) where status = 'IN_PROGRESS'`);
  }
}
