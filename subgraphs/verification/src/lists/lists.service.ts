import type pg from 'pg';
import { invalid, notFound } from '../../../../platform/errors.js';
import {
  getSnapshot,
  importSnapshot,
  listSnapshots,
  parseList,
  snapshotChanges,
  type ListKind,
  type SnapshotChange,
  type SnapshotInfo,
} from '../../../../screening/index.js';
import type { ListFile, ListFormat } from '../../../../screening/lists/parse.js';

export interface ImportListCommand {
  files: ListFile[];
  source?: string | null;
  format?: ListFormat | null;
  kind?: ListKind | null;
  importedBy: string;
}

/** Admin use cases over the screening list snapshots (reference data shared by all tenants). */
export class ListsService {
  constructor(private readonly pool: pg.Pool) {}

  async import(cmd: ImportListCommand): Promise<{ snapshot: SnapshotInfo; unchanged: boolean; files: string[] }[]> {
    const parsed = parseList(cmd.files, { source: cmd.source ?? undefined, kind: cmd.kind ?? undefined });
    if (cmd.format && parsed.some((p) => p.format !== cmd.format)) {
      throw invalid(`format ${cmd.format} does not match the content (detected ${parsed.map((p) => p.format).join(', ')})`);
    }
    if (cmd.source && parsed.some((p) => p.source !== cmd.source)) {
      throw invalid(`source ${cmd.source} does not match the content (it is ${parsed.map((p) => p.source).join(', ')})`);
    }
    const out: { snapshot: SnapshotInfo; unchanged: boolean; files: string[] }[] = [];
    for (const list of parsed) {
      const r = await importSnapshot(this.pool, list.source, list.entries, { format: list.format, importedBy: cmd.importedBy });
      const snapshot = await getSnapshot(this.pool, r.snapshotId);
      out.push({ snapshot: snapshot!, unchanged: r.unchanged === true, files: list.files });
    }
    return out;
  }

  versions(source?: string | null, limit = 50): Promise<SnapshotInfo[]> {
    return listSnapshots(this.pool, source ?? undefined, limit);
  }

  async changes(snapshotId: string, change: SnapshotChange['change'] | null | undefined, page: number, limit: number) {
    if (!/^[0-9a-f-]{36}$/i.test(snapshotId) || !(await getSnapshot(this.pool, snapshotId)))
      throw notFound('Screening list snapshot', snapshotId);
    const r = await snapshotChanges(this.pool, snapshotId, change ?? undefined, limit, (page - 1) * limit);
    return { ...r, page, limit };
  }
}
