import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printVerdicts } from './support/targets.js';

/**
 * `npm run bench`: runs every `bench/*.bench.ts` (compiled) in turn, or only those whose name
 * contains one of the arguments (`npm run bench -- screening`). Each prints its own figures; then
 * one table of every target they measured, met or not.
 */
const dir = path.dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => !filters.length || filters.some((x) => f.includes(x)))
  .sort();
for (const file of files) {
  console.log(`\n=== ${file.replace('.bench.js', '')} ===`);
  const mod = (await import(path.join(dir, file))) as { run(): Promise<void> };
  await mod.run();
}
if (!files.length) console.log('no benchmark matched');
printVerdicts();
