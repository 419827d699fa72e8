import type pg from 'pg';
import { inTransaction } from '../../../../platform/db/transaction.js';
import type { FeedCategory, ParsedFeed } from './ip-feeds.js';

export interface ImportedFeed {
  feed: string;
  category: FeedCategory;
  provider: string | null;
  format: string;
  version: string;
  entries: number;
  /** Ranges in the previous version of the feed (0 for a new feed). */
  previousEntries: number;
  /** false when the same content was already imported (nothing changed). */
  changed: boolean;
  skipped: number;
  sourceName: string | null;
  importedAt: Date;
}

export interface FeedRow {
  feed: string;
  category: FeedCategory;
  provider: string | null;
  format: string;
  version: string;
  entries: number;
  sourceName: string | null;
  importedAt: Date;
}

/** A range of an imported feed that contains a looked-up address. */
export interface RangeMatch {
  feed: string;
  category: FeedCategory;
  network: string;
  provider: string | null;
  service: string | null;
  region: string | null;
  country: string | null;
  city: string | null;
}

const CHUNK = 5_000;

/** The imported IP feeds in PostgreSQL (verification.ip_feeds / ip_ranges): import, list, look up. */
export class IpFeedStore {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Replaces the feed's ranges with the parsed ones, atomically (readers see the old or the new set);
   * `signal` aborted (a shutdown): it stops between chunks and its transaction rolls back.
   */
  async import(parsed: ParsedFeed, sourceName: string | null = null, signal?: AbortSignal): Promise<ImportedFeed> {
    return inTransaction(this.pool, async (client) => {
      await client.query(`select pg_advisory_xact_lock(hashtext('ip_feed:' || $1))`, [parsed.feed]);
      const previous = await client.query<{ version: string; entries: number }>(
        'select version, entries from verification.ip_feeds where feed = $1',
        [parsed.feed],
      );
      const prev = previous.rows[0];
      if (prev?.version === parsed.version) {
        const { rows } = await client.query<{ imported_at: Date }>(
          `update verification.ip_feeds set category = $2, provider = $3, imported_at = now(), source_name = coalesce($4, source_name) where feed = $1 returning imported_at`,
          [parsed.feed, parsed.category, parsed.provider, sourceName],
        );
        // the category may have changed: keep the ranges' copy in step
        await client.query('update verification.ip_ranges set category = $2, provider = $3 where feed = $1', [
          parsed.feed,
          parsed.category,
          parsed.provider,
        ]);
        return { ...summary(parsed, sourceName, rows[0].imported_at), previousEntries: prev.entries, changed: false };
      }
      const { rows } = await client.query<{ imported_at: Date }>(
        `insert into verification.ip_feeds (feed, category, provider, format, version, entries, source_name, imported_at)
         values ($1, $2, $3, $4, $5, $6, $7, now())
         on conflict (feed) do update set category = excluded.category, provider = excluded.provider, format = excluded.format,
           version = excluded.version, entries = excluded.entries, source_name = excluded.source_name, imported_at = excluded.imported_at
         returning imported_at`,
        [parsed.feed, parsed.category, parsed.provider, parsed.format, parsed.version, parsed.ranges.length, sourceName],
      );
      await client.query('delete from verification.ip_ranges where feed = $1', [parsed.feed]);
      for (let i = 0; i < parsed.ranges.length; i += CHUNK) {
        signal?.throwIfAborted();
        const chunk = parsed.ranges.slice(i, i + CHUNK);
        await client.query(
          `insert into verification.ip_ranges (feed, category, provider, network, service, region, country, city)
           select $1, $2, $3, n::cidr, s, r, c, ci from unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) as t(n, s, r, c, ci)`,
          [
            parsed.feed,
            parsed.category,
            parsed.provider,
            chunk.map((r) => r.network),
            chunk.map((r) => r.service ?? null),
            chunk.map((r) => r.region ?? null),
            chunk.map((r) => r.country ?? null),
            chunk.map((r) => r.city ?? null),
          ],
        );
      }
      return { ...summary(parsed, sourceName, rows[0].imported_at), previousEntries: prev?.entries ?? 0, changed: true };
    });
  }

  async list(): Promise<FeedRow[]> {
    const { rows } = await this.pool.query(
      `select feed, category, provider, format, version, entries, source_name as "sourceName", imported_at as "importedAt"
         from verification.ip_feeds order by category, feed`,
    );
    return rows as FeedRow[];
  }

  /** Every imported range containing `ip`, most specific first. */
  async lookup(ip: string): Promise<RangeMatch[]> {
    const { rows } = await this.pool.query(
      `select feed, category, network::text as network, provider, service, region, country, city
         from verification.ip_ranges where network >>= $1::inet order by masklen(network) desc, feed limit 50`,
      [ip],
    );
    return rows as RangeMatch[];
  }
}

function summary(parsed: ParsedFeed, sourceName: string | null, importedAt: Date) {
  return {
    feed: parsed.feed,
    category: parsed.category,
    provider: parsed.provider,
    format: parsed.format,
    version: parsed.version,
    entries: parsed.ranges.length,
    skipped: parsed.skipped,
    sourceName,
    importedAt,
  };
}
