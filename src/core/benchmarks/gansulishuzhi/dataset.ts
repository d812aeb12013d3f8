/**
 * gansulishuzhi on disk (gansulishuzhi.md "Data on disk"): `manifest.jsonl` (one page a line),
 * `pages/page_<NNN>.png`, optional `overlays/` (GT drawn in red) and `runs/<name>.jsonl`.
 */
import type { Box } from '../../geometry/box';
import { datasetFingerprint } from '../../fingerprint';
import { basename, dirname, joinPath, type FileSource } from '../../io/fileSource';
import { forEachLine } from '../../io/text';
import { readImageHeader } from '../../image/header';
import { InputError, type DatasetInfo, type RunContext } from '../../model';
import { isBox } from '../tabench/parse';
import { parseJsonLine } from '../../io/json';
import { ImageProblems, checkImageFiles } from '../../image/imageProblems';

export const MANIFEST = 'manifest.jsonl';

export interface Page {
  id: string;
  page?: number;
  image_path: string;
  /** [w, h] from image_size_px (else the image header), null when unknown. */
  size: [number, number] | null;
  gt: Box[];
  /** 1-based line in manifest.jsonl. */
  line: number;
}

export interface GansuDataset {
  info: DatasetInfo;
  root: string;
  pages: Page[];
  byId: Map<string, number>;
  byPath: Map<string, number>;
  byName: Map<string, number>;
  /** Raw manifest lines, for a byte-identical export of untouched pages. */
  rawLines: string[];
  /** Manifest lines that could not be read as a page. */
  badLines: number;
  /** image_path → path of the page image in the source (null when absent). */
  imageFiles: Map<string, string | null>;
  /** image_path → dataset path of its red GT overlay, when the folder has one. */
  overlays: Map<string, string>;
  /** After corrections: manifest line → corrected page (null = deleted), for the export. */
  edited?: Map<number, Page | null>;
}

/** The folder of the shallowest manifest.jsonl that has a pages/ folder beside it. */
export function findGansuRoot(src: FileSource): { root: string; hasPages: boolean } | null {
  const files = src.list().map((e) => e.path);
  let best: { root: string; hasPages: boolean } | null = null;
  for (const f of files) {
    if (basename(f) !== MANIFEST) continue;
    const root = dirname(f);
    const prefix = root === '' ? 'pages/' : `${root}/pages/`;
    const hasPages = files.some((p) => p.startsWith(prefix));
    const better = !best || (hasPages && !best.hasPages) || (hasPages === best.hasPages && root.split('/').length < best.root.split('/').length);
    if (better) best = { root, hasPages };
  }
  return best;
}

function readPage(o: unknown, line: number): Page | string {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return 'not a JSON object';
  const r = o as Record<string, unknown>;
  const image_path = typeof r.image_path === 'string' && r.image_path !== '' ? r.image_path : undefined;
  const id = r.id !== undefined && r.id !== null && r.id !== '' ? String(r.id) : undefined;
  if (!image_path) return 'no image_path';
  if (!Array.isArray(r.gt_bboxes)) return 'no gt_bboxes list';
  const gt: Box[] = [];
  for (const b of r.gt_bboxes) {
    if (!isBox(b)) return 'gt_bboxes holds something other than [x0, y0, x1, y1]';
    gt.push([b[0], b[1], b[2], b[3]]);
  }
  const sz = r.image_size_px;
  const size: [number, number] | null =
    Array.isArray(sz) && sz.length === 2 && sz.every((v) => typeof v === 'number' && Number.isFinite(v) && v > 0) ? [sz[0] as number, sz[1] as number] : null;
  return {
    id: id ?? basename(image_path).replace(/\.[^.]*$/, ''),
    page: typeof r.page === 'number' ? r.page : undefined,
    image_path,
    size,
    gt,
    line,
  };
}

/** A short, safe spelling of an image_size_px value for a warning (never recurses into it). */
function quoteSize(v: unknown): string {
  if (Array.isArray(v)) {
    const flat = v.length <= 4 && v.every((x) => x === null || ['number', 'string', 'boolean'].includes(typeof x));
    return flat ? `[${v.map((x) => (typeof x === 'string' ? JSON.stringify(x.slice(0, 20)) : String(x))).join(', ')}]` : `(a list of ${v.length})`;
  }
  if (typeof v === 'string') return JSON.stringify(v.slice(0, 40));
  return v !== null && typeof v === 'object' ? '(an object)' : String(v);
}

export function indexPages(pages: readonly Page[]): Pick<GansuDataset, 'byId' | 'byPath' | 'byName'> {
  const byId = new Map<string, number>();
  const byPath = new Map<string, number>();
  const byName = new Map<string, number>();
  pages.forEach((p, i) => {
    if (!byId.has(p.id)) byId.set(p.id, i);
    if (!byPath.has(p.image_path)) byPath.set(p.image_path, i);
    if (!byName.has(basename(p.image_path))) byName.set(basename(p.image_path), i);
  });
  return { byId, byPath, byName };
}

export async function loadGansu(src: FileSource, ctx?: RunContext): Promise<GansuDataset> {
  const found = findGansuRoot(src);
  if (!found) throw new InputError(`${src.label}: no ${MANIFEST}`);
  const root = found.root;
  const manifest = joinPath(root, MANIFEST);
  const warnings: string[] = [];
  const pages: Page[] = [];
  const rawLines: string[] = [];
  let badLines = 0;
  const seen = new Set<string>();
  await forEachLine(src, manifest, (text, line) => {
    rawLines.push(text);
    if (text.trim() === '') return;
    const parsed = parseJsonLine(text);
    if (!parsed.ok) {
      badLines += 1;
      warnings.push(`${MANIFEST} line ${line}: ${parsed.why}`);
      return;
    }
    const o = parsed.value;
    const p = readPage(o, line);
    if (typeof p === 'string') {
      badLines += 1;
      warnings.push(`${MANIFEST} line ${line}: ${p}`);
      return;
    }
    if (seen.has(p.id)) {
      badLines += 1;
      warnings.push(`${MANIFEST} line ${line}: second page with id ${p.id} ignored`);
      return;
    }
    seen.add(p.id);
    pages.push(p);
    const given = (o as Record<string, unknown>).image_size_px;
    if (given !== undefined && p.size === null) {
      warnings.push(`${MANIFEST} line ${line}: image_size_px ${quoteSize(given)} is not [width, height] with two positive numbers: ignored (the page's size comes from its image header when readable)`);
    }
  });
  if (pages.length === 0) throw new InputError(`${manifest}: no readable page`);
  ctx?.signal?.throwIfAborted();

  const listed = new Set(src.list().map((e) => e.path));
  const imageFiles = new Map<string, string | null>();
  const overlays = new Map<string, string>();
  const problems = new ImageProblems('its page is scored without a picture');
  for (const p of pages) {
    const f = joinPath(root, p.image_path);
    imageFiles.set(p.image_path, listed.has(f) ? f : null);
    if (!listed.has(f)) problems.notFound(p.image_path);
    const overlay = joinPath('overlays', basename(p.image_path));
    if (listed.has(joinPath(root, overlay))) overlays.set(p.image_path, overlay);
    // Pages without image_size_px take the size from their image header (needed for rel1000).
    if (!p.size && listed.has(f)) {
      const h = await readImageHeader(src, f).catch(() => null);
      if (h) p.size = [h.width, h.height];
      else problems.undecodable(f, 'no PNG, JPEG, GIF, BMP or WebP header with a size (rel1000 boxes cannot be placed)');
    }
  }
  // Pages whose size the manifest gives were not opened above: check that they are images at all.
  await checkImageFiles(src, pages.filter((p) => p.size && imageFiles.get(p.image_path)).map((p) => imageFiles.get(p.image_path)!), problems, ctx?.signal);
  if (problems.notFoundCount > 0) warnings.push(`${problems.notFoundCount} of ${pages.length} page images are not in the folder`);
  warnings.push(...problems.warnings());

  const figures = pages.reduce((n, p) => n + p.gt.length, 0);
  const info: DatasetInfo = {
    benchmark: 'gansulishuzhi',
    summary: `gansulishuzhi — ${pages.length} pages, ${figures} figures${overlays.size ? ', with overlays' : ''}`,
    cases: pages.length,
    images: pages.length,
    warnings,
    fingerprint: datasetFingerprint(
      'gansulishuzhi',
      pages.map((p) => `${p.id}\t${p.image_path}\t${JSON.stringify(p.gt)}`),
    ),
    facts: { pages: pages.length, figures },
  };
  return { info, root, pages, ...indexPages(pages), rawLines, badLines, imageFiles, overlays };
}
