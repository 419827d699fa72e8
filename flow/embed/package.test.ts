import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const dir = path.join(__dirname);
const root = path.join(dir, '..', '..');

/** The web component as an npm package: `npm pack flow/embed` after `npm run build` (which `npm test` runs first). */
describe('the @afri-verify/verification-flow package', () => {
  it('packs the built script the gateway serves, its map and its README, nothing else', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8' }),
    ) as Array<{
      name: string;
      files: Array<{ path: string }>;
    }>;
    expect(packed.name).toBe('@afri-verify/verification-flow');
    expect(packed.files.map((f) => f.path).sort()).toEqual(['README.md', 'dist/embed.js', 'dist/embed.js.map', 'package.json']);
    // the same component as the gateway's /flow/embed.js, but for its source map's name
    const strip = (text: string) => text.replace(/\/\/# sourceMappingURL=.*\s*$/, '');
    expect(strip(readFileSync(path.join(dir, 'dist', 'embed.js'), 'utf8'))).toBe(
      strip(readFileSync(path.join(root, 'dist', 'flow', 'embed.js'), 'utf8')),
    );
  });
});
