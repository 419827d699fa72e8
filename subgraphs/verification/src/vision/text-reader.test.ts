import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { TextReader } from './text-reader.js';

describe('TextReader', () => {
  it('leaves no folder of model links behind once started, even when never closed', async () => {
    const temp = mkdtempSync(path.join(tmpdir(), 'text-reader-test-'));
    const reader = new TextReader(['eng', 'fra'], { tempDir: temp }); // two languages: a folder of links to their models
    try {
      const page = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#fff' } })
        .png()
        .toBuffer();
      await reader.read(page);
      // a process that ends here (no close()) must not leave the folder in the temporary directory
      expect(readdirSync(temp)).toEqual([]);
    } finally {
      await reader.close();
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
