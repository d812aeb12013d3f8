/**
 * LTB (Long-Tailed Benchmark for scene text detection), scored with MMOCR's `hmean-iou` exactly
 * as shared/specs/ltb.md describes: 15 split files, two protocol variants (mmocr-1.0.1 default,
 * mmocr-0.6.3), per-split best threshold, per-instance challenge tags for the viewer.
 */
import { datasetFingerprint } from '../../fingerprint';
import { InputError, type BenchmarkAdapter, type RunContext } from '../../model';
import type { FileSource } from '../../io/fileSource';
import { applyLtbCorrections, exportLtbGroundTruth } from './corrections';
import { buildNameMaps, type LtbDataset } from './dataset';
import { resolveImages } from './images';
import { LTB_PROTOCOLS, resolveLtbProtocol } from './protocol';
import { EXPECTS, planConfidence, planGt, planReason, readGt } from './readGt';
import { loadLtbPredictions, type LtbPredictions } from './readPredictions';
import { scoreLtb } from './score';
import { CATEGORY_BITS, NORM, SPLITS } from './splits';
import { WarningList } from './values';
import { LTB_REPORT_LAYOUT } from './reportLayout';

export type { LtbDataset } from './dataset';
export type { LtbPredictions } from './readPredictions';

export async function loadLtbDataset(src: FileSource, ctx?: RunContext): Promise<LtbDataset> {
  const plan = await planGt(src);
  if (!plan) throw new InputError(`no LTB ground truth in "${src.label}" (expected ${EXPECTS})`);
  const warnings = new WarningList();
  const read = await readGt(src, plan, warnings, (done, total) => {
    ctx?.signal?.throwIfAborted();
    ctx?.progress?.({ phase: 'read', done, total, label: 'LTB annotation files' });
  });
  const images = read.builder.images;
  if (images.length === 0) throw new InputError(`${read.splitFiles[0]?.path || src.label}: no images in the LTB ground truth`);
  let splitMask = 0;
  for (const f of read.splitFiles) splitMask |= 1 << f.split;
  let instances = 0;
  let care = 0;
  for (const im of images) {
    for (const g of im.gt) {
      g.tags = g.care & CATEGORY_BITS;
      instances++;
      if (g.care & (1 << NORM) || (!(splitMask & (1 << NORM)) && g.care)) care++;
    }
  }
  const found = await resolveImages(src, images, read.annoDirs, warnings, ctx?.signal);
  const { byName, byStem } = buildNameMaps(images);
  const nSplits = read.splitFiles.length;
  const format = read.format === 'mmocr1.x' ? 'MMOCR 1.x' : read.format === 'coco' ? 'COCO' : 'ICDAR2015';
  return {
    info: {
      benchmark: 'ltb',
      summary: `LTB — ${nSplits} split${nSplits === 1 ? '' : 's'} (${format}), ${images.length} images, ${instances} GT polygons`,
      cases: images.length,
      images: found,
      warnings: warnings.list(),
      fingerprint: datasetFingerprint('ltb', images.map((im) => im.name)),
      facts: {
        splits: nSplits,
        images: images.length,
        images_found: found,
        gt_polygons: instances,
        care_polygons: care,
        format,
        split_files: read.splitFiles.map((f) => SPLITS[f.split].key).join(', '),
      },
    },
    format: read.format,
    images,
    splitMask,
    splitFiles: read.splitFiles,
    byName,
    byStem,
  };
}

/** "12 malformed lines, 3 records for images not in the dataset; first: …" */
function refusalReason(counts: Record<string, number>, warnings: readonly string[]): string {
  const parts: string[] = [];
  if (counts.malformed_lines) parts.push(`${counts.malformed_lines} malformed record(s)`);
  if (counts.unknown_images) parts.push(`${counts.unknown_images} record(s) for images not in the dataset`);
  if (parts.length === 0) return 'no record names an image of the dataset (the file holds none)';
  const first = warnings.find((w) => !/res file\(s\),|carry no confidence/.test(w));
  return `no record names an image of the dataset (${parts.join(', ')}${first ? `; first: ${first.length > 160 ? first.slice(0, 159) + '…' : first}` : ''})`;
}

export const ltbAdapter: BenchmarkAdapter<LtbDataset, LtbPredictions> = {
  id: 'ltb',
  title: 'LTB',
  description: 'LTB — long-tailed scene text detection',
  reportLayout: LTB_REPORT_LAYOUT,
  protocols: LTB_PROTOCOLS,
  expects: EXPECTS,
  async detect(src) {
    const plan = await planGt(src);
    return plan ? { benchmark: 'ltb', confidence: planConfidence(plan), reason: planReason(plan) } : null;
  },
  resolveProtocol: resolveLtbProtocol,
  loadDataset: loadLtbDataset,
  bundledPredictions: () => [],
  loadPredictions: loadLtbPredictions,
  predictionUse: (_ds, p) => ({
    // `{}` / `[]` is a model that detected nothing (scored); a file whose records all failed is not.
    usable: p.data.joined + (p.data.emptyDocument ? 1 : 0),
    file: p.data.source,
    why: refusalReason(p.counts, p.warnings),
  }),
  score: scoreLtb,
  applyCorrections: applyLtbCorrections,
  exportGroundTruth: exportLtbGroundTruth,
};
