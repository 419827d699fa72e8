import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * pg-boss's `db` option backed by an EntityManager's current transaction, so a job is created in
 * the same transaction as the rows it works on (committed together, or not at all).
 * pg-boss writes `$n` placeholders; the EntityManager takes `?` (values reordered accordingly).
 */
export function jobDb(em: EntityManager): { executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }> } {
  return {
    async executeSql(text, values = []) {
      const ordered: unknown[] = [];
      const sql = text.replace(/\$(\d+)/g, (_m, n: string) => {
        ordered.push(values[Number(n) - 1]);
        return '?';
      });
      const rows = await em.execute(sql, ordered);
      return { rows: Array.isArray(rows) ? rows : [] };
    },
  };
}
