/**
 * GT health of PulseBench-Select: one case per sample (its sample_id); instance i < gt.length is
 * the i-th selected GT item, then the unselected selection candidates (`gt.length + k`), as the
 * viewer numbers them. Boxes are normalised 8-number polygons in [0, 1]; matching uses tokens and
 * centroids, not IoU, so a duplicate is the same content on the same page at (nearly) the same place.
 */
import type { FileSource } from '../../io/fileSource';
import type { RunContext } from '../../model';
import { checkImages, imageFindings, type ImageToCheck } from '../../lint/images';
import { outsideImage } from '../../lint/bounds';
import { findDuplicates } from '../../lint/duplicates';
import { boundsOfPoints } from '../../lint/pairs';
import { ratio } from '../../lint/format';
import { makeRegion, regionIoU } from '../../geometry/polygonRegion';
import { isBlank, quote, suspiciousText } from '../../lint/text';
import { inSlices, type BenchmarkLint } from '../../lint/run';
import { finding, type LintFinding } from '../../lint/types';
import type { PulseDataset, PulseSample } from './dataset';
import type { SelItem } from './items';

function lintSample(s: PulseSample, out: LintFinding[]): void {
  const items: SelItem[] = [...s.gt, ...s.candidates];
  if (s.gt.length === 0 && s.candidates.length >= 2) {
    out.push(
      finding(
        s.id,
        undefined,
        'no_selected_option',
        `nothing is selected among ${s.candidates.length} selection candidates: the sample counts as perfect for a model that selects nothing and every selection a model makes is a false positive — check that the GT did not lose its mark`,
      ),
    );
  }
  items.forEach((it, i) => {
    const selected = i < s.gt.length;
    if (selected && isBlank(it.content)) {
      out.push(finding(s.id, i, 'empty_text', `selected item with empty content ${quote(it.content)}: it has no tokens, so no prediction can reach the token-overlap bar to match it (a certain miss)`));
    }
    const sus = suspiciousText(it.content);
    if (sus) out.push(finding(s.id, i, 'text_suspicious', sus));
    if (it.box && s.width && s.height) {
      const px = it.box.map((v, k) => v * (k % 2 === 0 ? s.width! : s.height!));
      const why = outsideImage(px, s.width, s.height);
      if (why) out.push(finding(s.id, i, 'out_of_image', `${why} (bbox normalised to [0, 1]): its centroid, which the centroid veto compares, may lie off the page`));
    }
  });
  // Duplicates: same page, same content, polygons overlapping at IoU ≥ 0.9.
  const boxed = items.map((it, i) => ({ it, i })).filter((x) => x.it.box !== null);
  if (boxed.length < 2) return;
  const bounds = new Float64Array(4 * boxed.length);
  boxed.forEach((x, k) => boundsOfPoints(x.it.box!, bounds, k));
  const regions = boxed.map((x) => makeRegion(x.it.box!, 'hull'));
  const keys = boxed.map((x) => `${x.it.page}\u0000${x.it.content}`);
  const iou = (a: number, b: number) => regionIoU(regions[a], regions[b]);
  for (const d of findDuplicates(bounds, (k) => regions[k].area, keys, iou)) {
    const later = boxed[d.later].i, earlier = boxed[d.earlier].i;
    out.push(
      finding(
        s.id,
        later,
        'duplicate_instance',
        `IoU ${ratio(d.iou)} with instance ${earlier} on page ${boxed[d.later].it.page} (same content ${quote(boxed[d.later].it.content)}): ` +
          (later < s.gt.length && earlier < s.gt.length ? 'one prediction can match only one of them, so the other is a certain miss' : 'the same field listed twice'),
      ),
    );
  }
}

export async function lintPulse(ds: PulseDataset, src: FileSource, ctx?: RunContext): Promise<BenchmarkLint> {
  const out: LintFinding[] = [];
  // Images in the folder (JSONL layout) are checked from their headers; parquet-embedded images
  // were parsed when the dataset loaded (a sample whose bytes had no header has image null; one
  // whose header carries an EXIF orientation keeps it in turnedEmbedded).
  const files: ImageToCheck[] = [];
  for (const s of ds.samples) {
    if (s.image?.kind === 'file') files.push({ caseIds: [s.id], name: s.imagePath ?? s.image.path, file: s.image.path });
    else if (s.turnedEmbedded) {
      const at = `${s.imagePath ?? 'the page image'} (${s.turnedEmbedded.at})`;
      imageFindings({ caseIds: [s.id], name: at, file: at }, s.turnedEmbedded.header, null, out);
    } else if (s.image === null) {
      out.push(
        finding(
          s.id,
          undefined,
          'image_missing',
          s.imagePath ? `the page image ${s.imagePath} is not in the folder or does not decode: the viewer has no picture` : 'the sample has no page image: the viewer has no picture',
        ),
      );
    }
  }
  await checkImages(src, files, out, ctx?.signal);
  let instances = 0;
  await inSlices(ds.samples.length, ctx, 'GT health', (k) => {
    const s = ds.samples[k];
    instances += s.gt.length + s.candidates.length;
    lintSample(s, out);
  });
  return { findings: out, cases: ds.samples.length, instances };
}
