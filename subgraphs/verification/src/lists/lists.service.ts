import type pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../../../platform/errors.js';
import { paginate, paginateOffset, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import {
  currentVersions,
  getSnapshot,
  importSnapshot,
  parseList,
  snapshotChanges,
  type ListKind,
  type SnapshotChange,
  type SnapshotInfo,
} from '../../../../screening/index.js';
import type { ListFile, ListFormat } from '../../../../screening/lists/parse.js';
import { ListSnapshot } from './lists.entity.js';

export interface ImportListCommand {
  files: ListFile[];
  source?: string | null;
  format?: ListFormat | null;
  kind?: ListKind | null;
  importedBy: string;
}

const isSnapshotId = (id: string) => /^[0-9a-f-]{36}$/i.test(id);

/** Admin use cases over the screening list snapshots (reference data shared by all tenants). */
export class ListsService {
  constructor(
    private readonly pool: pg.Pool,
    private readonly em: EntityManager,
  ) {}

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

  /** Imported versions (of one list), newest first, each saying whether it is its list's current one. */
  async versions(source: string | null | undefined, page: ConnectionArgs): Promise<Connection<SnapshotInfo>> {
    const [found, current] = await Promise.all([
      paginate(this.em, ListSnapshot, source != null ? { source } : {}, page),
      currentVersions(this.pool),
    ]);
    const info = (s: ListSnapshot): SnapshotInfo => ({
      id: s.id,
      source: s.source,
      version: s.version,
      kind: s.kind,
      format: s.format ?? null,
      total: s.total,
      added: s.added,
      removed: s.removed,
      changed: s.changed,
      importedBy: s.importedBy ?? null,
      publishedOn: s.publishedOn ?? null,
      createdAt: s.createdAt,
      current: current[s.source]?.snapshotId === s.id,
    });
    const edges = found.edges.map((edge) => ({ cursor: edge.cursor, node: info(edge.node) }));
    return { ...found, edges, nodes: edges.map((edge) => edge.node) };
  }

  /** The changes of one version against the previous one; null when there is no such version. */
  async changes(snapshotId: string, change: SnapshotChange['change'] | null | undefined, page: ConnectionArgs) {
    const snapshot = isSnapshotId(snapshotId) ? await getSnapshot(this.pool, snapshotId) : null;
    if (!snapshot) return null;
    const totalCount = change ? snapshot[CHANGE_COUNT[change]] : snapshot.added + snapshot.removed + snapshot.changed;
    return paginateOffset(page, async (offset, limit) => ({
      nodes: (await snapshotChanges(this.pool, snapshotId, change ?? undefined, limit, offset)).data,
      totalCount,
    }));
  }
}

const CHANGE_COUNT = { ADDED: 'added', REMOVED: 'removed', CHANGED: 'changed' } as const;
