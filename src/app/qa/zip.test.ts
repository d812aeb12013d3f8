import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from '../../core/io/bytes';
import { unzip } from '../../core/io/zip';
import { zipTexts } from './zip';

// Checked with Python's zipfile (a reader that honours the UTF-8 name flag, unlike some unzip builds).
const HAS_PYTHON = existsSync('/usr/bin/python3');

describe('zip writer', () => {
  it('writes an archive the reader of prediction archives reads back, in order, the same bytes each time', async () => {
    const files = { 'gt/img_1.txt': '1,2,3,4,5,6,7,8,EXIT\n'.repeat(50), '/gt/图_2.txt': '0,0,1,0,1,1,0,1,###\n' };
    const zip = zipTexts(files);
    expect(zipTexts(files)).toEqual(zip);
    const back = await unzip(zip);
    expect(back.map((e) => [e.name, new TextDecoder().decode(e.data)])).toEqual([
      ['gt/img_1.txt', files['gt/img_1.txt']],
      ['gt/图_2.txt', files['/gt/图_2.txt']],
    ]);
  });

  it('computes the standard CRC-32', () => {
    expect(crc32(new TextEncoder().encode('123456789')).toString(16)).toBe('cbf43926');
  });

  it.skipIf(!HAS_PYTHON)('writes an archive a standard reader reads back byte for byte, UTF-8 names included', () => {
    const files = { 'gt/img_1.txt': '1,2,3,4,5,6,7,8,EXIT\n', 'gt/图_2.txt': '0,0,1,0,1,1,0,1,###\n', 'README.txt': '' };
    const dir = mkdtempSync(join(tmpdir(), 'bl-zip-'));
    try {
      writeFileSync(join(dir, 'a.zip'), zipTexts(files));
      const script = 'import zipfile,sys; z=zipfile.ZipFile("a.zip"); assert z.testzip() is None; z.extractall("out"); print(len(z.namelist()))';
      expect(execFileSync('python3', ['-c', script], { cwd: dir, encoding: 'utf8' }).trim()).toBe('3');
      for (const [p, text] of Object.entries(files)) expect(readFileSync(join(dir, 'out', p), 'utf8')).toBe(text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
