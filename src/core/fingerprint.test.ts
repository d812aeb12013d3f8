import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../test/shared';
import { makeDemo } from './benchmarks/ltb/demo';
import { ContentHasher, datasetFingerprint, fingerprintingSource } from './fingerprint';
import { MemorySource, singleFileSource } from './io/fileSource';
import { BenchSession } from './session';

const bytes = (n: number, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 7) & 0xff);

describe('content hash', () => {
  it('is the same however the bytes are cut into chunks', () => {
    const b = bytes(1003);
    const whole = new ContentHasher().update(b).digest();
    for (const cut of [1, 2, 3, 5, 64, 1000]) {
      const h = new ContentHasher();
      for (let i = 0; i < b.length; i += cut) h.update(b.subarray(i, i + cut));
      expect(h.digest(), `chunks of ${cut}`).toBe(whole);
    }
  });

  it('tells apart one changed byte, a longer file and trailing zero bytes', () => {
    const b = bytes(4096);
    const d = new ContentHasher().update(b).digest();
    const c = b.slice();
    c[2000] ^= 1;
    expect(new ContentHasher().update(c).digest()).not.toBe(d);
    expect(new ContentHasher().update(bytes(4097)).digest()).not.toBe(d);
    expect(new ContentHasher().update(new Uint8Array(3)).digest()).not.toBe(new ContentHasher().update(new Uint8Array(4)).digest());
    expect(d).toMatch(/^[0-9a-f]{16}$/);
  });

  it('hashes 4 MiB reader chunks at well over 100 MiB/s (it rides on the read; a 1 GiB file is not read twice)', () => {
    const b = new Uint8Array(32 << 20);
    for (let i = 0; i < b.length; i++) b[i] = (i * 31) & 0xff;
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const t0 = performance.now();
      const h = new ContentHasher();
      for (let i = 0; i < b.length; i += 4 << 20) h.update(b.subarray(i, i + (4 << 20)));
      h.digest();
      best = Math.min(best, performance.now() - t0);
    }
    console.log(`content hash: ${((32 / best) * 1000).toFixed(0)} MiB/s (best of 3, shared machine)`);
    expect(best).toBeLessThan(320); // > 100 MiB/s even on a loaded machine
  });

  it('leaves the dataset fingerprint as it was', () => {
    expect(datasetFingerprint('ltb', ['b', 'a'])).toBe(datasetFingerprint('ltb', ['a', 'b']));
  });
});

describe('prediction content fingerprint (what reviews of predictions are keyed by)', () => {
  async function session() {
    const demo = await makeDemo();
    const s = await BenchSession.open(demo.source, 'ltb');
    return { s, demo };
  }

  it('is the same for the same file under another name, after a rename, and after remove + re-add', async () => {
    const { s, demo } = await session();
    const [dbnet, psenet] = demo.predictions;
    await s.addPredictions(dbnet);
    await s.addPredictions(psenet);
    const first = s.modelContents;
    expect(Object.keys(first)).toEqual(['demo-dbnet', 'demo-psenet']);
    expect(first['demo-dbnet']).not.toBe(first['demo-psenet']);

    s.renameModel('demo-dbnet', 'my detector');
    expect(s.modelContents['my detector']).toBe(first['demo-dbnet']);
    s.removeModel('my detector');
    expect(s.modelContents).toEqual({ 'demo-psenet': first['demo-psenet'] });

    // The same bytes in a file of another name, from another source.
    const text = await dbnet.source.read(dbnet.path);
    const renamed = new MemorySource('elsewhere', { 'run-42-final.json': text });
    const [name] = await s.addPredictions({ source: renamed, path: 'run-42-final.json', name: 'run-42-final' });
    expect(s.modelContents[name]).toBe(first['demo-dbnet']);

    // One byte changed: another prediction set.
    const changed = text.slice();
    const at = changed.indexOf(0x35); // a '5' in some coordinate
    changed[at] = 0x36;
    const [other] = await s.addPredictions({ source: new MemorySource('x', { 'demo-dbnet.json': changed }), path: 'demo-dbnet.json', name: 'demo-dbnet' });
    expect(s.modelContents[other]).not.toBe(first['demo-dbnet']);
  });

  it('wraps the source without reading anything twice', async () => {
    const src = new MemorySource('p', { 'a.json': '{"x":1}' });
    let reads = 0;
    const counting = { ...src, label: 'p', list: () => src.list(), read: async (p: string) => (reads++, src.read(p)) };
    const h = fingerprintingSource(counting, 'a.json');
    await h.source.read('a.json');
    expect(reads).toBe(1);
    expect(h.fingerprint()).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe.skipIf(!HAS_SHARED)('prediction content fingerprint on the shared LTB references', () => {
  it('names a file and a folder of per-image files by content, not by their names', async () => {
    const s = await BenchSession.open(nodeFolderSource(shared('data/ltb-mini')), 'ltb');
    const refs = nodeFolderSource(shared('reference/ltb'));
    await s.addPredictions({ source: singleFileSource(refs, 'ltbmini-mmocr.jsonl'), path: 'ltbmini-mmocr.jsonl', name: 'ltbmini-mmocr' });
    await s.addPredictions({ source: refs, path: 'ltbmini-mmocr.jsonl', name: 'same file, other name' });
    await s.addPredictions({ source: refs, path: 'ltbmini-icdar', name: 'icdar folder' });
    await s.addPredictions({ source: nodeFolderSource(shared('reference/ltb/ltbmini-icdar')), path: '', name: 'the folder opened itself' });
    const c = s.modelContents;
    expect(c['same file, other name']).toBe(c['ltbmini-mmocr']);
    expect(c['the folder opened itself']).toBe(c['icdar folder']);
    expect(c['icdar folder']).not.toBe(c['ltbmini-mmocr']);
  });
});
