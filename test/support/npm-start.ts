import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The node arguments `npm start` runs in the checkout at `root`: package.json's start script,
 * `node <flags> <script>` (the API process's V8 flags live there), the script's path made absolute.
 */
export function npmStartArgs(root = process.cwd()): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [node, ...args] = scripts.start.trim().split(/\s+/);
  if (node !== 'node' || !args.at(-1)?.endsWith('.js')) throw new Error(`npm start is not "node [flags] <script>.js": ${scripts.start}`);
  return [...args.slice(0, -1), path.resolve(root, args.at(-1)!)];
}
