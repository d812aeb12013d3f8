/**
 * GT health of LTB (shared/specs/lint.md): one case per image (its name, as scoring names it),
 * instance i = the image's joined GT list index — the ids the viewer and case_analysis.jsonl use.
 *
 * Geometry goes through the scorer's own code: the polygon repair (makeRegion, MMOCR 1.0.1's
 * convex hull of pieces) and the don't-care filter's share `inter / (area + 1e-5)` of
 * protocol.ts, with a perfect detection standing for the prediction (the GT polygon itself).
 */
import type { FileSource } from '../../io/fileSource';
import type { RunContext } from '../../model';
import { dedupeRing, isConvexSimpleRing, isSimpleRing, ringArea } from '../../geometry/polygon';
import { intersectionArea, makeRegion, regionIoU, type Region } from '../../geometry/polygonRegion';
import { checkImages, type ImageToCheck } from '../../lint/images';
import { outsideImage } from '../../lint/bounds';
import { findDuplicates } from '../../lint/duplicates';
import { boundsOfPoints, overlappingPairs } from '../../lint/pairs';
import { polygonDefect } from '../../lint/polygon';
import { isBlank, quote, suspiciousText } from '../../lint/text';
import { list, pct, ratio } from '../../lint/format';
import { inSlices, type BenchmarkLint } from '../../lint/run';
import { finding, type LintFinding } from '../../lint/types';
import type { LtbDataset, LtbImage } from './dataset';
import { SPLITS } from './splits';

/** The don't-care filter drops a prediction more than this share inside a don't-care GT. */
const DONTCARE_SHARE = 0.5;

function splitNames(mask: number): string[] {
  const out: string[] = [];
  for (let s = 0; s < SPLITS.length; s++) if (mask & (1 << s)) out.push(SPLITS[s].key);
  return out;
}

function fileNames(ds: LtbDataset, mask: number): string[] {
  return ds.splitFiles.filter((f) => mask & (1 << f.split)).map((f) => (f.path ? f.path.slice(f.path.lastIndexOf('/') + 1) : SPLITS[f.split].key));
}

/** A polygon's region under MMOCR 1.0.1 (the default protocol), made once per instance and only when a pair needs it. */
class Regions {
  private readonly cache: (Region | undefined)[];
  constructor(private readonly img: LtbImage) {
    this.cache = new Array(img.gt.length);
  }
  get(i: number): Region {
    return (this.cache[i] ??= makeRegion(this.img.gt[i].points, 'hull'));
  }
}

function isValidFast(points: number[]): boolean {
  const r = dedupeRing(points);
  return isConvexSimpleRing(r) || isSimpleRing(r);
}

/** `inconsistent_across_splits` of instance i: split files that lack its polygon, or give it another text. */
function splitFindings(ds: LtbDataset, img: LtbImage, i: number, listed: number, out: LintFinding[]): void {
  const id = img.name;
  const g = img.gt[i];
  if ((g.present & listed) !== listed) {
    const missing = listed & ~g.present;
    out.push(
      finding(
        id,
        i,
        'inconsistent_across_splits',
        `this polygon is in ${splitNames(g.present & listed).length} of the ${splitNames(listed).length} split files that list the image; not in ${list(fileNames(ds, missing))} ` +
          `(which have another polygon here, or none): the splits score different GT for this word`,
      ),
    );
  }
  if (g.otherTexts?.length) {
    // A "###" transcription on a don't-care copy is the ICDAR convention, not a disagreement.
    const dontCareMark = (o: { split: number; text: string }) =>
      (o.text === '###' && !(g.care & (1 << o.split))) || (g.text === '###' && (g.present & ~g.care) !== 0);
    const real = g.otherTexts.filter((o) => !dontCareMark(o));
    if (real.length) {
      const first = real[0];
      out.push(
        finding(
          id,
          i,
          'inconsistent_across_splits',
          `text ${quote(g.text ?? '')} here but ${quote(first.text)} in ${list(fileNames(ds, 1 << first.split))}` +
            (real.length > 1 ? ` (and ${real.length - 1} more file(s) differ)` : '') +
            ': the split files disagree on the transcription (Benchlens shows the first file\'s)',
        ),
      );
    }
  }
}

function lintImage(ds: LtbDataset, img: LtbImage, size: { width: number; height: number; field: string } | null, out: LintFinding[]): void {
  const id = img.name;
  const n = img.gt.length;
  const listed = img.splits & ds.splitMask;
  if (listed !== ds.splitMask) {
    const missing = ds.splitMask & ~listed;
    out.push(
      finding(id, undefined, 'inconsistent_across_splits', `the image is listed in ${splitNames(listed).length} of ${splitNames(ds.splitMask).length} split files; not in ${list(fileNames(ds, missing))}: its GT counts in some splits and not in others`),
    );
  }
  const bounds = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const g = img.gt[i];
    boundsOfPoints(g.points, bounds, i);
    const isCare = (g.care & g.present) !== 0;
    if (!isValidFast(g.points)) {
      const why = polygonDefect(g.points);
      if (why) out.push(finding(id, i, 'polygon_invalid', why));
    }
    if (size) {
      const why = outsideImage(g.points, size.width, size.height);
      if (why) out.push(finding(id, i, 'out_of_image', `${why} (${size.field}): scoring keeps the polygon as written, but a detector that keeps its polygons on the image cannot reach IoU 1 with it`));
    }
    if (g.text !== undefined) {
      if (isCare && isBlank(g.text)) out.push(finding(id, i, 'empty_text', `care instance (care in ${list(splitNames(g.care & g.present))}) with empty text ${quote(g.text)}: detection scoring ignores text, but end-to-end / spotting use of this GT has nothing to match`));
      if (isCare && g.text.trim() === '###') {
        out.push(
          finding(id, i, 'care_unreadable_text', `care in ${list(splitNames(g.care & g.present))} but transcribed "###", ICDAR's mark for an unreadable word: either it should be don't care (ignore: true) or its text is missing`),
        );
      }
      const bad = suspiciousText(g.text);
      if (bad) out.push(finding(id, i, 'text_suspicious', bad));
    }
    splitFindings(ds, img, i, listed, out);
  }
  if (n < 2) return;
  const regions = new Regions(img);
  const texts = img.gt.some((g) => g.text !== undefined) ? img.gt.map((g) => g.text) : null;
  for (const d of findDuplicates(bounds, (i) => regions.get(i).area, texts, (i, j) => regionIoU(regions.get(i), regions.get(j)))) {
    out.push(
      finding(
        id,
        d.later,
        'duplicate_instance',
        `IoU ${ratio(d.iou)} with instance ${d.earlier}${texts ? ` (same text ${quote(texts[d.later] ?? '')})` : ''}: the same word annotated twice; ` +
          (isCareAnywhere(img, d.later) && isCareAnywhere(img, d.earlier) ? 'one detection can match only one of them, so the other is a certain miss' : 'one of the two is redundant'),
      ),
    );
  }
  unreachable(img, bounds, regions, out);
}

function isCareAnywhere(img: LtbImage, i: number): boolean {
  return (img.gt[i].care & img.gt[i].present) !== 0;
}

/**
 * `unreachable_gt`: care GT g more than half inside a don't-care GT d of the same split. A perfect
 * detection of g (its own polygon) is then removed by the don't-care filter before matching.
 */
function unreachable(img: LtbImage, bounds: Float64Array, regions: Regions, out: LintFinding[]): void {
  const hits = new Map<number, { mask: number; by: number; share: number }>();
  const test = (g: number, d: number) => {
    const G = img.gt[g], D = img.gt[d];
    const mask = G.care & G.present & D.present & ~D.care;
    if (!mask) return;
    // protocol.ts mmocr-1.0.1 overlap: inter / (area + 1e-5), area = the prediction's raw ring area.
    const share = intersectionArea(regions.get(g), regions.get(d)) / (ringArea(G.points) + 1e-5);
    if (!(share > DONTCARE_SHARE)) return;
    const prev = hits.get(g);
    if (prev) prev.mask |= mask;
    else hits.set(g, { mask, by: d, share });
  };
  overlappingPairs(bounds, (i, j) => {
    test(i, j);
    test(j, i);
  });
  for (const [g, h] of [...hits].sort((a, b) => a[0] - b[0])) {
    const splits = splitNames(h.mask);
    out.push(
      finding(
        img.name,
        g,
        'unreachable_gt',
        `${pct(h.share)} of this care word lies inside don't-care GT ${h.by} in split${splits.length === 1 ? '' : 's'} ${list(splits, 15)}: ` +
          `a detection of it is dropped by the don't-care filter (> 50% inside) before matching, so no detector can be credited — a certain miss there`,
      ),
    );
  }
}

export async function lintLtb(ds: LtbDataset, src: FileSource, ctx?: RunContext): Promise<BenchmarkLint> {
  const out: LintFinding[] = [];
  const toCheck: ImageToCheck[] = ds.images.map((im) => ({
    caseIds: [im.name],
    name: im.imgPath,
    file: im.imageFile,
    ...(im.width !== undefined && im.height !== undefined ? { annotated: { width: im.width, height: im.height, field: 'width/height' } } : {}),
  }));
  const headers = await checkImages(src, toCheck, out, ctx?.signal);
  let instances = 0;
  await inSlices(ds.images.length, ctx, 'GT health', (k) => {
    const im = ds.images[k];
    instances += im.gt.length;
    const h = headers[k];
    const size =
      im.width !== undefined && im.height !== undefined
        ? { width: im.width, height: im.height, field: 'annotated width/height' }
        : h
          ? { width: h.width, height: h.height, field: 'image header' }
          : null;
    lintImage(ds, im, size, out);
  });
  return { findings: out, cases: ds.images.length, instances };
}

