import { Migration } from '@mikro-orm/migrations';

/**
 * A liveness session's photos (files, face readings and descriptions) can be gone while the session
 * stays (erasure, retention): when, in a plain column, since what they were is sealed.
 */
export class Migration20261201020000LivenessPhotosDeleted extends Migration {
  override up(): void {
    this.addSql(`alter table verification.liveness_sessions add column photos_deleted_at timestamptz`);
  }
}
