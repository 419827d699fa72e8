import { Migration } from '@mikro-orm/migrations';

/**
 * An enrolled face's crowding (issue 29, face-match.ts `faceCrowding`), measured when it is enrolled.
 * Faces enrolled before have none: the first search of each process measures and keeps theirs
 * (enrollment.store.ts), before it reads the column.
 */
export class Migration20261206000000FaceCrowding extends Migration {
  override up(): void {
    this.addSql(`alter table verification.biometric_enrollments add column crowding real`);
  }
}
