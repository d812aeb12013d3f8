import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { BenchSession } from '../../core/session';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../test/shared';
import { BenchlensDB, setDb } from '../../db/schema';
import { closeChannel } from '../../db/changes';
import { commitCorrection, correctionsForScoring, editFor, effectiveGt } from './corrections';

afterAll(() => closeChannel());

/**
 * The whole corrected-GT path the page takes, in Node: a polygon edit stored through the app's
 * corrections store, read back for scoring, applied by the adapter to a copy of the dataset.
 */
describe.skipIf(!HAS_SHARED)('scoring with corrected GT (ltb-mini, mmocr-1.0.1)', () => {
  it('a moved GT polygon changes the corrected hmean while the official numbers stay the reference ones', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data/ltb-mini')));
    await session.addPredictions({ source: nodeFolderSource(shared('reference/ltb')), path: 'ltbmini-object.json', name: 'ltbmini-object' });
    const protocol = session.resolveProtocol('mmocr-1.0.1');
    const [official] = await session.score(protocol);
    const expected = JSON.parse(readFileSync(shared('reference/ltb/expected-ltbmini-object-mmocr-1.0.1.json'), 'utf8')).models['ltbmini-object'].metrics as Record<string, number>;
    expect(Math.abs(official.metrics['norm/hmean'] - expected['norm/hmean'])).toBeLessThanOrEqual(1e-9);

    const c = official.cases.find((k) => k.gt.some((g) => g.state === 'tp' && g.shape?.type === 'polygon'))!;
    expect(c, 'a case with a matched GT polygon').toBeDefined();
    const gtIndex = c.gt.findIndex((g) => g.state === 'tp' && g.shape?.type === 'polygon');

    const name = `benchlens-corrected-${Math.random().toString(36).slice(2)}`;
    const db = new BenchlensDB(name);
    setDb(db);
    try {
      const fp = session.info.fingerprint;
      const shown = effectiveGt(c.gt, [])[gtIndex];
      // The polygon dragged to a 3×3 corner where no prediction is: its match is lost.
      await commitCorrection(fp, editFor(shown, c.case_id, { shape: { type: 'polygon', points: [0, 0, 3, 0, 3, 3, 0, 3] } }));
      const corrections = await correctionsForScoring(fp);
      expect(corrections).toEqual([{ case_id: c.case_id, gt_id: shown.gt_id, shape: { type: 'polygon', points: [0, 0, 3, 0, 3, 3, 0, 3] } }]);

      const correctedDataset = session.adapter.applyCorrections!(session.dataset, corrections);
      const [corrected] = await session.score(protocol, undefined, undefined, correctedDataset);
      expect(corrected.metrics['norm/hmean']).toBeLessThan(official.metrics['norm/hmean']);
      expect(corrected.metrics['norm/recall']).toBeLessThan(official.metrics['norm/recall']);

      const [again] = await session.score(protocol);
      expect(again.metrics).toEqual(official.metrics);
    } finally {
      setDb(null);
      db.close();
      await Dexie.delete(name);
    }
  });
});
