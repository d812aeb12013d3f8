import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { iconFiles } from '../scripts/icons';
import { REPO_ROOT } from './shared';

const pub = (name: string) => join(REPO_ROOT, 'public', name);

describe('the app icons in public/', () => {
  it('are the ones scripts/icons.ts draws (regenerate with npx tsx scripts/make-icons.ts)', async () => {
    for (const [name, content] of Object.entries(await iconFiles())) {
      const want = typeof content === 'string' ? new TextEncoder().encode(content) : content;
      expect(new Uint8Array(readFileSync(pub(name))), name).toEqual(want);
    }
  });

  it('are all named by the web manifest, with the sizes the PNG headers give', () => {
    const manifest = JSON.parse(readFileSync(pub('manifest.webmanifest'), 'utf8')) as { icons: { src: string; sizes: string }[] };
    expect(manifest.icons.map((i) => i.src).sort()).toEqual(['favicon.svg', 'icon-192.png', 'icon-512.png', 'icon-maskable-512.png']);
    for (const icon of manifest.icons.filter((i) => i.src.endsWith('.png'))) {
      const png = readFileSync(pub(icon.src));
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
    }
  });
});
