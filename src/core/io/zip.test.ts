import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Zip, ZipDeflate, zipSync } from 'fflate';
import { buildZip, deflated, stored, zipBomb } from '../../../test/zipFixtures';
import { chunkedSource } from '../../../test/chunkedSource';
import { makeDemo } from '../benchmarks/ltb/demo';
import { BenchSession } from '../session';
import { unzip, ZIP_LIMITS, ZipError } from './zip';

const HAS_PYTHON = existsSync('/usr/bin/python3');
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const listing = async (z: Uint8Array) => (await unzip(z)).map((e) => [e.name, text(e.data)]);

describe('reading a ZIP archive', () => {
  it('reads stored and deflated entries, skips folders, reads backslashes as folder separators', async () => {
    const z = buildZip([stored('sub/', ''), stored('sub\\res_img_1.txt', '1,2,3,4,5,6,7,8\n'), deflated('res_img_2.txt', '0,0,1,0,1,1,0,1,0.9\n'.repeat(100))]);
    expect(await listing(z)).toEqual([
      ['sub/res_img_1.txt', '1,2,3,4,5,6,7,8\n'],
      ['res_img_2.txt', '0,0,1,0,1,1,0,1,0.9\n'.repeat(100)],
    ]);
  });

  it('reads UTF-8 names that lack the UTF-8 flag (macOS and Linux tools write them so)', async () => {
    const z = zipSync({ 'a.txt': new Uint8Array([65]) });
    // fflate flags non-ASCII names; build one unflagged by hand instead.
    const e = stored('图_1.txt', 'x');
    const bytes = buildZip([e]);
    // Clear bit 11 in the local header (offset 6) and in the central directory entry.
    bytes[7] &= ~0x08;
    const cd = bytes.length - 22 - (46 + new TextEncoder().encode(e.name).length);
    bytes[cd + 9] &= ~0x08;
    expect(await listing(bytes)).toEqual([['图_1.txt', 'x']]);
    expect(await listing(z)).toEqual([['a.txt', 'A']]);
  });

  it('reads entries written with data descriptors (sizes after the data, as streaming writers do)', async () => {
    const chunks: Uint8Array[] = [];
    const zip = new Zip((err, data) => {
      if (err) throw err;
      chunks.push(data);
    });
    for (const [name, body] of [['res_img_1.txt', '1,1,9,1,9,9,1,9\n'.repeat(300)], ['res_img_2.txt', '2,2,8,2,8,8,2,8\n']]) {
      const f = new ZipDeflate(name, { level: 6 });
      zip.add(f);
      f.push(new TextEncoder().encode(body), true);
    }
    zip.end();
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    chunks.reduce((at, c) => (bytes.set(c, at), at + c.length), 0);
    expect(bytes[6] & 0x08).toBe(0x08); // really a data descriptor entry
    expect(await listing(bytes)).toEqual([
      ['res_img_1.txt', '1,1,9,1,9,9,1,9\n'.repeat(300)],
      ['res_img_2.txt', '2,2,8,2,8,8,2,8\n'],
    ]);
  });

  it('reads 50,000 empty entries without overflowing the stack (fflate recurses once per entry of a pushed piece)', async () => {
    const z = buildZip(Array.from({ length: 50_000 }, (_, i) => stored(`${i}`, '')));
    const entries = await unzip(z);
    expect(entries).toHaveLength(50_000);
    expect(entries[49_999]).toEqual({ name: '49999', data: new Uint8Array(0) });
  });

  it('reads a ZIP64 archive built from the APPNOTE (ZIP64 extra fields, end record and locator)', async () => {
    const z = buildZip([stored('res_img_1.txt', '1,2,3,4,5,6,7,8\n', true), deflated('res_img_2.txt', '9,9,9,9,9,9,9,9\n'.repeat(50), true)]);
    expect(Buffer.from(z).indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBeGreaterThan(0); // the ZIP64 end record
    expect(await listing(z)).toEqual([
      ['res_img_1.txt', '1,2,3,4,5,6,7,8\n'],
      ['res_img_2.txt', '9,9,9,9,9,9,9,9\n'.repeat(50)],
    ]);
  });

  it.skipIf(!HAS_PYTHON)('the hand-built ZIP64 fixture is one Python zipfile reads, and a ZIP64 archive Python writes is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bl-zip64-'));
    try {
      writeFileSync(join(dir, 'ours.zip'), buildZip([deflated('res_img_1.txt', '1,2,3,4,5,6,7,8\n', true)]));
      const script = [
        'import zipfile',
        'z = zipfile.ZipFile("ours.zip"); assert z.read("res_img_1.txt") == b"1,2,3,4,5,6,7,8\\n"',
        'w = zipfile.ZipFile("py.zip", "w", zipfile.ZIP_DEFLATED)',
        'f = w.open("res_img_7.txt", "w", force_zip64=True); f.write(b"7,7,8,7,8,8,7,8\\n"); f.close()',
        'w.writestr("res_img_8.txt", b"8,8,9,8,9,9,8,9\\n"); w.close()',
        'print("ok")',
      ].join('\n');
      expect(execFileSync('python3', ['-c', script], { cwd: dir, encoding: 'utf8' }).trim()).toBe('ok');
      const py = new Uint8Array(readFileSync(join(dir, 'py.zip')));
      expect(await listing(py)).toEqual([
        ['res_img_7.txt', '7,7,8,7,8,8,7,8\n'],
        ['res_img_8.txt', '8,8,9,8,9,9,8,9\n'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('refusing an archive', () => {
  it('refuses a 4 GiB ZIP64 bomb that declares its size before inflating anything', async () => {
    const bomb = zipBomb(4096);
    const t = performance.now();
    await expect(unzip(bomb)).rejects.toThrow(/^res_img_1\.txt: 4096 MiB uncompressed, more than the 256 MiB an entry may hold$/);
    expect(performance.now() - t).toBeLessThan(2000);
  });

  it('stops a bomb that lies about its size (declares 1 KiB, inflates to 4 GiB) within one piece, without running out of memory', async () => {
    const before = process.memoryUsage().arrayBuffers;
    await expect(unzip(zipBomb(4096, 1024))).rejects.toThrow(/^res_img_1\.txt: inflates more than 100 times its compressed size: a zip bomb, refused$/);
    // What was inflated before the stop is a few MiB, not GiBs.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(256 * 2 ** 20);
  });

  it('applies the per-entry, total and entry-count limits to what really comes out', async () => {
    const body = (n: number) => 'x'.repeat(n);
    const z = buildZip([stored('a.txt', body(600)), stored('b.txt', body(600))]);
    const lim = { ...ZIP_LIMITS, entryBytes: 500 };
    await expect(unzip(z, lim)).rejects.toThrow(/^a\.txt: 600 bytes uncompressed, more than the 500 bytes an entry may hold$/);
    await expect(unzip(z, { ...ZIP_LIMITS, totalBytes: 1000 })).rejects.toThrow(/^1200 bytes uncompressed in all, more than the 1000 bytes/);
    await expect(unzip(z, { ...ZIP_LIMITS, entries: 1 })).rejects.toThrow(/^2 entries, more than the 1 an archive may hold here$/);
    // Lying headers (declared 10 bytes each): the counters on the real output still stop it.
    const liar = buildZip([{ ...stored('a.txt', body(600)), size: 10 }, { ...stored('b.txt', body(600)), size: 10 }]);
    await expect(unzip(liar, lim)).rejects.toThrow(/^a\.txt: more than 500 bytes uncompressed/);
    await expect(unzip(liar, { ...ZIP_LIMITS, totalBytes: 1000 })).rejects.toThrow(/^more than 1000 bytes uncompressed in all/);
  });

  it('says why for a file that is not an archive, a truncated one, and an unsupported method', async () => {
    await expect(unzip(new TextEncoder().encode('not a zip at all, just text'))).rejects.toThrow(/^not a ZIP archive/);
    const good = buildZip([deflated('res_img_1.txt', 'some text that deflates\n'.repeat(40))]);
    await expect(unzip(good.slice(0, good.length - 30))).rejects.toThrow(ZipError);
    const bz = buildZip([{ ...stored('res_img_1.txt', 'x'), method: 12 }]);
    await expect(unzip(bz)).rejects.toThrow(/^res_img_1\.txt: compression method 12 is not supported \(only stored and deflate\)$/);
    const corrupt = buildZip([{ ...stored('res_img_1.txt', new Uint8Array([0xff, 0xff, 0xff, 0xff])), method: 8 }]);
    await expect(unzip(corrupt)).rejects.toThrow(/^res_img_1\.txt: cannot inflate/);
  });

  it('an archive larger than the total limit is refused from its listed size, before it is read', async () => {
    const session = await BenchSession.open((await makeDemo()).source, 'ltb');
    const src = chunkedSource({ 'huge.zip': buildZip([stored('res_img_1.txt', '1,1,2,1,2,2,1,2\n')]) }, 1 << 16, { 'huge.zip': 3 * 2 ** 30 });
    await expect(session.addPredictions({ source: src, path: 'huge.zip', name: 'huge' })).rejects.toThrow(
      /^huge\.zip: a 3072 MiB archive, more than the 1024 MiB an archive may hold; unpack it and give the folder$/,
    );
    expect(session.modelNames).toEqual([]);
  });
});
