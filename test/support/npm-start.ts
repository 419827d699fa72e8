import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What `npm start` runs in the checkout at `root`: package.json's start script,
 * `[NAME=value …] node <flags> <script>` (the API process's allocator settings and V8 flags live
 * there), as the environment it sets and node's arguments, the script's path made absolute.
 */
export function npmStartCommand(root = process.cwd()): { env: Record<string, string>; args: string[] } {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) {
    const [name, ...value] = words.shift()!.split('=');
    env[name] = value.join('=');
  }
  const [node, ...args] = words;
  if (node !== 'node' || !args.at(-1)?.endsWith('.js'))
    throw new Error(`npm start is not "[NAME=value …] node [flags] <script>.js": ${scripts.start}`);
  return { env, args: [...args.slice(0, -1), path.resolve(root, args.at(-1)!)] };
}
