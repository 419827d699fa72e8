import pg from 'pg';
import { importSnapshot } from '../../screening/index.js';

/** A fixture UN sanctions list version naming these individuals (ids `${idPrefix}0`, `${idPrefix}1`…). */
export async function listIndividuals(databaseUrl: string, names: readonly string[], idPrefix = 'QDi.99'): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await importSnapshot(
      pool,
      'UN_SC',
      names.map((full, i) => ({
        source: 'UN_SC',
        kind: 'SANCTIONS',
        externalId: `${idPrefix}${i}`,
        entityType: 'INDIVIDUAL',
        names: [{ full, type: 'PRIMARY' }],
        datesOfBirth: [],
        nationalities: [],
        documents: [],
        programs: ['Fixture programme'],
      })),
    );
  } finally {
    await pool.end();
  }
}
