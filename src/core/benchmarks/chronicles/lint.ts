/**
 * GT health of Chronicles-OCR. GT geometry lives in the Spotting task: case `<image_path>#spotting`,
 * instance i = the row's i-th usable spotting character (GtRow.chars, as the viewer numbers them).
 * Spotting items the reader (like the official judge's bbox_to_xyxy) drops have no instance: they
 * are whole-case findings naming `spotting[k]`. The row's `annotation` (the Parsing GT) is
 * instance 0 of the `#parsing` case. image_missing and exif_rotated go on every task case of the row (each
 * shows the image), image_size_mismatch on the spotting case (width/height serve Spotting alone).
 */
import type { FileSource } from '../../io/fileSource';
import type { RunContext } from '../../model';
import { checkImages } from '../../lint/images';
import { outsideImage } from '../../lint/bounds';
import { corners, duplicateBoxes } from '../../lint/boxes';
import { box as fmtBox } from '../../lint/format';
import { isBlank, quote, suspiciousText } from '../../lint/text';
import { inSlices, type BenchmarkLint } from '../../lint/run';
import { finding, type LintFinding } from '../../lint/types';
import type { ChroniclesDataset, GtRow } from './gt';
import { isUnkChar } from './judge';
import { readGtBox } from './gt';

const caseOf = (row: GtRow, task: string) => `${row.image_path}#${task}`;

function lintRow(row: GtRow, out: LintFinding[]): void {
  const annotation = typeof row.raw.annotation === 'string' ? row.raw.annotation : null;
  if (row.tasks.includes('parsing')) {
    // The Parsing case's one GT instance (0) is the annotation.
    const parsing = caseOf(row, 'parsing');
    if (annotation === null || isBlank(annotation)) {
      out.push(finding(parsing, 0, 'empty_text', `the annotation (the Parsing GT) is ${annotation === null ? 'missing' : quote(annotation)}: only an empty reading scores 1, any real reading scores 0`));
    } else {
      const sus = suspiciousText(annotation);
      if (sus) out.push(finding(parsing, 0, 'text_suspicious', `annotation: ${sus}`));
    }
  }
  if (!row.tasks.includes('spotting')) return;
  const id = caseOf(row, 'spotting');
  // Items the reader dropped (the judge never sees them): the raw list says which and why.
  const raw = Array.isArray(row.raw.spotting) ? (row.raw.spotting as unknown[]) : [];
  raw.forEach((it, k) => {
    if (typeof it !== 'object' || it === null || Array.isArray(it)) {
      out.push(finding(id, undefined, 'instance_dropped', `spotting[${k}] is not an object: the judge skips it, so its character is in no score`));
      return;
    }
    const r = readGtBox(it as Record<string, unknown>);
    if (!('drop' in r)) return;
    const empty = /is empty/.test(r.drop);
    out.push(finding(id, undefined, empty ? 'box_degenerate' : 'instance_dropped', `spotting[${k}] ${r.drop}: the character is dropped from the GT, so Detection and Spotting never count it`));
  });
  const sized = row.width > 0 && row.height > 0;
  row.chars.forEach((c, i) => {
    if (sized) {
      const why = outsideImage(corners(c.bbox), row.width, row.height, 'corner');
      if (why) out.push(finding(id, i, 'out_of_image', `${why} (the row's width/height; box ${fmtBox(c.bbox)} read as ${c.form}): the judge scales GT by 1000 / width, 1000 / height and clamps predictions to [0, 1000], so no prediction covers the part past the edge`));
    }
    if (isBlank(c.char)) {
      out.push(finding(id, i, 'empty_text', `character with empty text ${quote(c.char)}: the judge treats it as unknown and leaves it out of Spotting (kept for Detection)`));
    } else {
      const sus = suspiciousText(c.char);
      if (sus) out.push(finding(id, i, 'text_suspicious', sus));
      if (annotation !== null && !isBlank(annotation) && !isUnkChar(c.char) && !annotation.includes(c.char.trim())) {
        out.push(finding(id, i, 'spotting_text_mismatch', `spotting character ${quote(c.char)} does not occur in the row's annotation ${quote(annotation)}: one of the two transcriptions is wrong`));
      }
    }
  });
  duplicateBoxes(
    id,
    row.chars.map((c) => c.bbox),
    row.chars.map((c) => c.char),
    'a predicted character can match only one of them, so the other is a certain miss in Detection and Spotting',
    out,
  );
}

export async function lintChronicles(ds: ChroniclesDataset, src: FileSource, ctx?: RunContext): Promise<BenchmarkLint> {
  const out: LintFinding[] = [];
  await checkImages(
    src,
    ds.rows.map((row) => ({
      // Every task case shows the image; width/height serve Spotting (and Detection) alone.
      caseIds: row.tasks.map((t) => caseOf(row, t)),
      name: row.image_path,
      file: row.image_file,
      ...(row.width > 0 && row.height > 0 ? { annotated: { width: row.width, height: row.height, field: 'width/height', caseIds: [caseOf(row, 'spotting')] } } : {}),
    })),
    out,
    ctx?.signal,
  );
  let instances = 0;
  let cases = 0;
  await inSlices(ds.rows.length, ctx, 'GT health', (k) => {
    const row = ds.rows[k];
    cases += row.tasks.length;
    // As the cases number them: one GT instance per task case (the script, the annotation, the
    // target character), the spotting case one per usable character.
    instances += row.tasks.length + (row.tasks.includes('spotting') ? row.chars.length - 1 : 0);
    lintRow(row, out);
  });
  return { findings: out, cases, instances };
}
