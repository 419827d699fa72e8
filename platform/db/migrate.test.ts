import { Migration } from '@mikro-orm/migrations';
import { migrationHistory, type MigrationClass } from './migrate.js';

const named = (name: string): MigrationClass =>
  ({
    [name]: class extends Migration {
      override up(): void {}
    },
  })[name];

describe('migrationHistory', () => {
  const a1 = named('Migration20260101000000A');
  const b2 = named('Migration20260102000000B');
  const c2 = named('Migration20260102000000C');
  const d3 = named('Migration20260103000000D');

  it('runs the services’ migrations in the order they were written, a tie in the order given', () => {
    expect(migrationHistory([[a1, d3], [c2], [b2]]).map((m) => m.name)).toEqual([
      'Migration20260101000000A',
      'Migration20260102000000C',
      'Migration20260102000000B',
      'Migration20260103000000D',
    ]);
  });

  it('refuses a migration listed twice or named without its timestamp', () => {
    expect(() => migrationHistory([[a1], [a1]])).toThrow('Migration20260101000000A is listed twice');
    expect(() => migrationHistory([[named('AddColumn')]])).toThrow('AddColumn: a migration is named');
  });
});
