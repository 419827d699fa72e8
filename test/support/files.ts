import { readdirSync } from 'node:fs';

/** The file ids a FolderBlobStore folder holds (`<dir>/<2 characters>/<id>`). */
export function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}
