import type pg from 'pg';
import { inTransaction } from '../db/transaction.js';
import type { Keyring } from './keyring.js';
import { indexOf, sealedTables, type SealedTable } from './sealed-columns.js';

// table and column names below come from the declarations in code (sealedEntity/sealedTable), never from input
const BATCH = 200;

/**
 * Rows written before encryption: their plaintext columns are sealed into the `…_sealed` ones (with
 * their blind indexes) and emptied, a batch per transaction, rows locked (SKIP LOCKED: several
 * processes starting at once share the work). Runs at start, before the services serve.
 */
export async function sealLegacyColumns(pool: pg.Pool, keyring: Keyring): Promise<number> {
  let sealed = 0;
  for (const table of sealedTables()) {
    const fields = table.fields.filter((f) => f.legacyColumn);
    if (!fields.length) continue;
    const pending = fields.map((f) => `${f.legacyColumn!} is not null`).join(' or ');
    for (;;) {
      const done = await inTransaction(pool, async (client) => {
        // rows by ctid: every table has one, whatever its key; stable while the row is locked
        const { rows } = await client.query<Record<string, unknown> & { row: string; organization_id: string }>(
          `select ctid::text as row, organization_id, ${fields.map((f) => f.legacyColumn!).join(', ')}
             from ${table.table} where ${pending} limit ${BATCH} for update skip locked`,
        );
        for (const row of rows) {
          const sets: string[] = [];
          const values: unknown[] = [row.row];
          const set = (column: string, value: unknown) => {
            values.push(value);
            sets.push(`${column} = $${values.length}`);
          };
          for (const field of fields) {
            const raw = row[field.legacyColumn!];
            if (raw == null) continue;
            const plain = field.fromLegacy ? field.fromLegacy(raw) : raw;
            set(field.column, await keyring.sealJson(row.organization_id, plain));
            for (const index of field.indexes ?? []) {
              const searched = index.of(plain);
              set(index.column, searched ? await indexOf(keyring, row.organization_id, index, searched) : null);
            }
            set(field.legacyColumn!, null);
          }
          await client.query(`update ${table.table} set ${sets.join(', ')} where ctid = $1::tid`, values);
        }
        return rows.length;
      });
      sealed += done;
      if (done < BATCH) break;
    }
  }
  return sealed;
}

/**
 * Moves an organization's sealed values to its newest data key version (after `Keyring.rotate`):
 * each value is opened and sealed again, and written only if the row still holds what was read
 * (a concurrent write wins; it is sealed with the newest version anyway). Blind indexes do not
 * change (their key is not a data key). Returns how many values moved.
 */
export async function reencryptColumns(pool: pg.Pool, keyring: Keyring, organizationId: string): Promise<number> {
  const keys = await keyring.keysOf(organizationId);
  let moved = 0;
  for (const table of sealedTables()) {
    for (const field of table.fields) moved += await reencryptColumn(pool, keyring, organizationId, keys.current, table, field.column);
  }
  return moved;
}

async function reencryptColumn(
  pool: pg.Pool,
  keyring: Keyring,
  organizationId: string,
  current: number,
  table: SealedTable,
  column: string,
): Promise<number> {
  let moved = 0;
  let after = '(0,0)';
  for (;;) {
    // by ctid (every table has one, whatever its key); a row updated meanwhile moves to a new ctid
    // and was sealed with the newest version by whoever updated it
    const { rows } = await pool.query<{ row: string; value: string }>(
      `select ctid::text as row, ${column} as value from ${table.table}
        where organization_id = $1 and ${column} is not null and ${column} not like $2 and ctid > $3::tid
        order by ctid limit ${BATCH}`,
      [organizationId, `enc:v${current}:%`, after],
    );
    for (const row of rows) {
      const next = await keyring.seal(organizationId, await keyring.open(organizationId, row.value));
      const { rowCount } = await pool.query(`update ${table.table} set ${column} = $3 where ctid = $1::tid and ${column} = $2`, [
        row.row,
        row.value,
        next,
      ]);
      moved += rowCount ?? 0;
    }
    if (rows.length < BATCH) return moved;
    after = rows[rows.length - 1].row;
  }
}
