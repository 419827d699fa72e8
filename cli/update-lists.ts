import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * `npm run lists:update [-- --from DIR | --mirror URL] [--dry-run]`
 *
 * Refreshes the official sanctions lists the platform ships with (OFAC SDN with its aliases and
 * addresses, UN Security Council consolidated list) through `lists:import`, each becoming a new
 * version when its content changed. Connected machine: downloads them from the publishers'
 * official URLs, or from a mirror of them (`--mirror URL`: the same file names under one URL, e.g.
 * an internal artifact server). Air-gapped machine: give `--from DIR` holding the same files
 * downloaded elsewhere (sdn.csv, alt.csv, add.csv, consolidated.xml; names as the publishers serve
 * them, any case). A download's Last-Modified date becomes the version's publishedOn.
 */
export const OFFICIAL_LISTS = [
  {
    source: 'OFAC_SDN',
    files: {
      'sdn.csv': 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV',
      'alt.csv': 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ALT.CSV',
      'add.csv': 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADD.CSV',
    },
  },
  { source: 'UN_SC', files: { 'consolidated.xml': 'https://scsanctions.un.org/resources/xml/en/consolidated.xml' } },
] as const;

const USAGE = `usage: npm run lists:update [-- --from DIR | --mirror URL] [--dry-run]
  without options  downloads ${OFFICIAL_LISTS.flatMap((l) => Object.values(l.files)).join('\n                   ')}
  --mirror URL     downloads the same file names under URL (sdn.csv … consolidated.xml)
  --from DIR       imports the files of the same names from DIR (air-gapped machines)
Each list becomes a new version when its content changed (npm run lists:import, DATABASE_URL or the embedded database).`;

const { values } = parseArgs({
  options: { from: { type: 'string' }, mirror: { type: 'string' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help || (values.from && values.mirror)) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}
/** Where a file is downloaded from: the publisher, or the mirror's file of that name. */
const sourceOf = (name: string, official: string) =>
  values.mirror ? new URL(name, values.mirror.replace(/\/?$/, '/')).toString() : official;

const today = new Date().toISOString().slice(0, 10);
const work = values.from ? null : mkdtempSync(path.join(tmpdir(), 'lists-update-'));
let failed = false;
try {
  for (const list of OFFICIAL_LISTS) {
    const files: string[] = [];
    let publishedOn = today;
    for (const [name, official] of Object.entries(list.files)) {
      const url = sourceOf(name, official);
      if (values.from) {
        const found = readdirSync(values.from).find((f) => f.toLowerCase() === name);
        if (!found) throw new Error(`${list.source}: ${name} is not in ${values.from}`);
        files.push(path.join(values.from, found));
        continue;
      }
      console.log(`downloading ${url}`);
      const res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      const modified = res.headers.get('last-modified');
      if (modified && !Number.isNaN(Date.parse(modified))) publishedOn = new Date(modified).toISOString().slice(0, 10);
      const file = path.join(work!, name);
      writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      files.push(file);
    }
    const importer = fileURLToPath(new URL('./import-lists.js', import.meta.url));
    if (!existsSync(importer)) throw new Error('run npm run build first');
    const args = [importer, ...files, '--source', list.source, ...(values.from ? [] : ['--published-on', publishedOn])];
    if (values['dry-run']) args.push('--dry-run');
    const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
    if (run.status !== 0) failed = true;
  }
} catch (err) {
  console.error((err as Error).message);
  failed = true;
} finally {
  if (work) rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
