/**
 * GT health of gansulishuzhi: one case per page (its id), instance i = `gt_bboxes[i]`, boxes in
 * pixels. The protocol (gansulishuzhi.md) scores a box with corners in the wrong order as drawn
 * (zero area, IoU 0) and greedily matches one prediction per GT box.
 */
import type { FileSource } from '../../io/fileSource';
import type { RunContext } from '../../model';
import { checkImages } from '../../lint/images';
import { outsideImage } from '../../lint/bounds';
import { corners, degenerateBox, duplicateBoxes } from '../../lint/boxes';
import { inSlices, type BenchmarkLint } from '../../lint/run';
import { finding, type LintFinding } from '../../lint/types';
import type { GansuDataset } from './dataset';

export async function lintGansu(ds: GansuDataset, src: FileSource, ctx?: RunContext): Promise<BenchmarkLint> {
  const out: LintFinding[] = [];
  await checkImages(
    src,
    ds.pages.map((p) => ({
      caseIds: [p.id],
      name: p.image_path,
      file: ds.imageFiles.get(p.image_path) ?? null,
      ...(p.size ? { annotated: { width: p.size[0], height: p.size[1], field: 'image_size_px' } } : {}),
    })),
    out,
    ctx?.signal,
  );
  let instances = 0;
  await inSlices(ds.pages.length, ctx, 'GT health', (k) => {
    const p = ds.pages[k];
    instances += p.gt.length;
    p.gt.forEach((b, i) => {
      const bad = degenerateBox(b);
      if (bad) out.push(finding(p.id, i, 'box_degenerate', bad));
      if (p.size) {
        const why = outsideImage(corners(b), p.size[0], p.size[1], 'corner');
        if (why) out.push(finding(p.id, i, 'out_of_image', `${why}: the protocol scores the box as written, but a model that keeps its boxes on the page cannot reach IoU 1 with it`));
      }
    });
    duplicateBoxes(p.id, p.gt, null, 'one prediction can match only one of them, so the other is a certain miss', out);
  });
  return { findings: out, cases: ds.pages.length, instances };
}
