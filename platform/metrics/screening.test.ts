import { Registry } from 'prom-client';
import { ScreeningIndex } from '../../screening/index.js';
import type { ListEntry } from '../../screening/types.js';
import { screeningIndexMetrics, type ScreeningIndexStats } from './screening.js';

const entry = (source: string, id: string, full: string): ListEntry => ({
  source,
  kind: 'SANCTIONS',
  externalId: id,
  entityType: 'INDIVIDUAL',
  names: [{ full, type: 'PRIMARY' }],
  datesOfBirth: [],
  nationalities: [],
  documents: [],
  programs: [],
});

describe('the screening index metrics', () => {
  it('report entries per list, names, packed bytes and the last build, as they are when scraped', async () => {
    let stats: ScreeningIndexStats = { entries: {}, names: 0, bytes: 0, builtAt: 0, buildSeconds: 0 };
    const registry = new Registry();
    for (const m of screeningIndexMetrics(() => stats)) registry.registerMetric(m);
    let text = await registry.metrics();
    expect(text).toContain('screening_index_lists 0');
    expect(text).not.toMatch(/^screening_index_entries\{/m);

    const entries = [entry('UN_SC', '1', 'John Doe'), entry('UN_SC', '2', 'Jane Roe'), entry('OFAC_SDN', '3', 'Ali Baba')];
    const index = ScreeningIndex.build(entries, {});
    expect(index.packedBytes).toBeGreaterThan(0);
    stats = {
      entries: { UN_SC: 2, OFAC_SDN: 1 },
      names: index.nameCount,
      bytes: index.packedBytes,
      builtAt: 1_800_000_000,
      buildSeconds: 0.25,
    };
    text = await registry.metrics();
    expect(text).toContain('screening_index_entries{list="UN_SC"} 2');
    expect(text).toContain('screening_index_entries{list="OFAC_SDN"} 1');
    expect(text).toContain('screening_index_lists 2');
    expect(text).toContain(`screening_index_names ${index.nameCount}`);
    expect(text).toContain(`screening_index_packed_bytes ${index.packedBytes}`);
    expect(text).toContain('screening_index_built_timestamp_seconds 1800000000');
    expect(text).toContain('screening_index_build_duration_seconds 0.25');

    // a list removed is no longer reported
    stats = { ...stats, entries: { OFAC_SDN: 1 } };
    expect(await registry.metrics()).not.toContain('list="UN_SC"');
  });
});
