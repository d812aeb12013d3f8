/**
 * GT health of TABench: one case per query (its id), in the space the adapter reads first
 * (abs, else rel1000: the same queries in the same order). Instance 0 of an R2T query is its
 * query box; instance i of a T2R query is its GT box i. Image findings go on every query of the
 * image. With both files, the rel1000 file is compared with the abs file (inconsistent_across_spaces).
 */
import { basename, type FileSource } from '../../io/fileSource';
import type { RunContext } from '../../model';
import { checkImages } from '../../lint/images';
import { outsideImage } from '../../lint/bounds';
import { corners, degenerateBox, duplicateBoxes } from '../../lint/boxes';
import { isBlank, quote, suspiciousText } from '../../lint/text';
import { box as fmtBox } from '../../lint/format';
import { inSlices, type BenchmarkLint } from '../../lint/run';
import { finding, type LintFinding } from '../../lint/types';
import type { Query, SpaceData, TabenchDataset } from './dataset';

/** rel1000 value of a pixel coordinate, as the benchmark's own conversion writes it: round(v·1000 / size). */
const toRel = (v: number, size: number) => Math.round((v * 1000) / size);

/**
 * `inconsistent_across_spaces`: the rel1000 file's query against the abs file's (same id). GT is
 * read from the file of the model's space (tabench.md), so a disagreement scores models in the two
 * spaces against different GT. Boxes agree when each rel1000 value is within 1 of round(abs·1000/size).
 */
function compareSpaces(q: Query, r: Query | undefined, size: { width: number; height: number } | null | undefined, relFile: string, out: LintFinding[]): void {
  if (!r) {
    out.push(finding(q.id, undefined, 'inconsistent_across_spaces', `query ${q.id} is not in ${relFile}: a model answering in rel1000 is not scored on it`));
    return;
  }
  const say = (i: number | undefined, what: string) => out.push(finding(q.id, i, 'inconsistent_across_spaces', `${what}: a model answering in rel1000 is scored against other GT than one answering in pixels`));
  if (r.task !== q.task || r.image_path !== q.image_path) {
    say(undefined, `${relFile} has a ${r.task} query on ${r.image_path} under this id, the abs file a ${q.task} query on ${q.image_path}`);
    return;
  }
  const boxDiff = (a: readonly number[], b: readonly number[]) => {
    if (!size) return null;
    const want = [toRel(a[0], size.width), toRel(a[1], size.height), toRel(a[2], size.width), toRel(a[3], size.height)];
    return want.some((v, k) => Math.abs(v - b[k]) > 1) ? `${relFile} has ${fmtBox(b)}, the abs box ${fmtBox(a)} is ${fmtBox(want)} in rel1000` : null;
  };
  if (q.task === 'R2T') {
    if (q.gtText !== r.gtText) say(0, `the answer is ${quote(q.gtText)} in the abs file but ${quote(r.gtText)} in ${relFile}`);
    const d = q.queryBox && r.queryBox ? boxDiff(q.queryBox, r.queryBox) : null;
    if (d) say(0, `the query box differs: ${d}`);
    return;
  }
  if (q.gtBoxes.length !== r.gtBoxes.length) {
    say(undefined, `${q.gtBoxes.length} GT box(es) in the abs file, ${r.gtBoxes.length} in ${relFile}`);
    return;
  }
  q.gtBoxes.forEach((b, i) => {
    const d = boxDiff(b, r.gtBoxes[i]);
    if (d) say(i, `GT box ${i} differs: ${d}`);
    else if ((q.gtTexts[i] ?? '') !== (r.gtTexts[i] ?? '')) say(i, `GT box ${i} reads ${quote(q.gtTexts[i] ?? '')} in the abs file but ${quote(r.gtTexts[i] ?? '')} in ${relFile}`);
  });
}

/** The last `[a, b, c, d]` of a question (the region an R2T question names), or null. */
function questionBox(question: string): number[] | null {
  const all = [...question.matchAll(/\[\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\]/g)];
  const m = all[all.length - 1];
  return m ? m.slice(1, 5).map(Number) : null;
}

/** The quoted text a T2R question asks for ("…", “…”, 「…」), or null. */
function questionText(question: string): string | null {
  const m = /"([^"]*)"|“([^”]*)”|「([^」]*)」/.exec(question);
  return m ? (m[1] ?? m[2] ?? m[3]) : null;
}

const sameBox = (a: readonly number[], b: readonly number[]) => a.every((v, k) => Math.abs(v - b[k]) <= 0.5);

/** The bbox an edited query's line had on disk (the export rewrites the question when it named that box). */
function originalBox(space: SpaceData, q: Query): number[] | null {
  if (!space.edited?.has(q.line)) return null;
  try {
    const b = (JSON.parse(space.rawLines[q.line - 1]) as { bbox?: unknown }).bbox;
    return Array.isArray(b) && b.length === 4 && b.every((v) => typeof v === 'number') ? (b as number[]) : null;
  } catch {
    return null;
  }
}

/**
 * `question_mismatch`: the question is what the model sees; the line's GT is what it is scored
 * on. A query corrected in the viewer keeps its question until the export, which rewrites the
 * box in it when it named the line's box: such a question counts as naming the corrected box.
 */
function compareQuestion(space: SpaceData, q: Query, out: LintFinding[]): void {
  if (q.task === 'R2T') {
    let asked = questionBox(q.question);
    const was = asked && originalBox(space, q);
    if (asked && was && q.queryBox && sameBox(asked, was)) asked = q.queryBox;
    if (asked && q.queryBox && !sameBox(asked, q.queryBox)) {
      out.push(finding(q.id, 0, 'question_mismatch', `the question asks about ${fmtBox(asked)} but the line's bbox is ${fmtBox(q.queryBox)}: the model reads one region and is scored against the text of another`));
    }
    return;
  }
  const asked = questionText(q.question);
  if (asked === null) return;
  q.gtTexts.forEach((t, i) => {
    if (t !== '' && t !== asked) out.push(finding(q.id, i, 'question_mismatch', `the question asks for ${quote(asked)} but GT box ${i} is ${quote(t)}: a model that finds ${quote(asked)} is scored against this box`));
  });
}

export async function lintTabench(ds: TabenchDataset, src: FileSource, ctx?: RunContext): Promise<BenchmarkLint> {
  const space = (ds.spaces.abs ?? ds.spaces.rel1000)!;
  // With both files, the rel1000 one is compared with the abs one query by query.
  const other = ds.spaces.abs && ds.spaces.rel1000 ? ds.spaces.rel1000 : null;
  const out: LintFinding[] = [];
  const byImage = new Map<string, string[]>();
  for (const q of space.queries) {
    const l = byImage.get(q.image_path);
    if (l) l.push(q.id);
    else byImage.set(q.image_path, [q.id]);
  }
  await checkImages(
    src,
    [...byImage].map(([image, ids]) => ({ caseIds: ids, name: image, file: ds.imageFiles.get(image) ?? null })),
    out,
    ctx?.signal,
  );
  // The frame a box must lie in: the image's pixels (abs), or 0–1000 (rel1000).
  const frame = (q: Query): { width: number; height: number; what: string } | null => {
    if (space.space === 'rel1000') return { width: 1000, height: 1000, what: 'the 0–1000 frame of TABench-rel1000' };
    const s = ds.imageSizes.get(q.image_path);
    return s ? { width: s.width, height: s.height, what: `the ${s.width}×${s.height} image` } : null;
  };
  let instances = 0;
  await inSlices(space.queries.length, ctx, 'GT health', (k) => {
    const q = space.queries[k];
    if (other) compareSpaces(q, other.queries[other.byId.get(q.id) ?? -1], ds.imageSizes.get(q.image_path), basename(other.file), out);
    compareQuestion(space, q, out);
    const f = frame(q);
    const outside = (b: readonly number[], i: number, what: string, effect: string) => {
      if (!f) return;
      const why = outsideImage(corners(b), f.width, f.height, 'corner', f.what);
      if (why) out.push(finding(q.id, i, 'query_box_outside', `${what} ${why}: ${effect}`));
    };
    if (q.task === 'R2T') {
      instances += 1;
      if (!q.queryBox) {
        out.push(finding(q.id, 0, 'instance_dropped', `the R2T line's bbox is not a [x1, y1, x2, y2] box: the viewer cannot show the region the question asks about`));
      } else {
        const bad = degenerateBox(q.queryBox);
        if (bad) out.push(finding(q.id, 0, 'box_degenerate', `R2T query ${bad.slice(0, bad.indexOf(': area 0'))}: the question asks about an empty region`));
        outside(q.queryBox, 0, 'R2T query box:', 'the model is asked to read a region partly off the image');
      }
      if (isBlank(q.gtText)) out.push(finding(q.id, 0, 'empty_text', `the R2T answer is ${quote(q.gtText)}: only an empty answer scores, after normalisation`));
      const sus = suspiciousText(q.gtText);
      if (sus) out.push(finding(q.id, 0, 'text_suspicious', `${sus}: an exact-match answer must reproduce these characters`));
      return;
    }
    instances += q.gtBoxes.length;
    q.gtBoxes.forEach((b, i) => {
      const bad = degenerateBox(b);
      if (bad) out.push(finding(q.id, i, 'box_degenerate', bad));
      outside(b, i, 'T2R GT box:', 'the protocol scores it as written, but a model that keeps its boxes on the image cannot reach IoU 1 with it');
      const sus = suspiciousText(q.gtTexts[i] ?? '');
      if (sus) out.push(finding(q.id, i, 'text_suspicious', sus));
    });
    duplicateBoxes(q.id, q.gtBoxes, q.gtTexts, 'each predicted box can match only one, so the other is a certain miss', out);
  });
  return { findings: out, cases: space.queries.length, instances };
}
