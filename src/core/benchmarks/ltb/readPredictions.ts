/**
 * A model's LTB predictions, in the four forms the spec accepts and in what detectors write:
 *  1. JSON object `{ "<image>": [[x1, y1, …, xn, yn, score], …] }`;
 *  2. JSON list `[{ "filename" | "img_path": …, "boundary_result": [[…, score], …] }]`;
 *  3. MMOCR 1.x inferencer output `{ img_path?, det_polygons, det_scores }` as JSONL lines or as a
 *     folder of per-image JSON files (file stem = image stem), including
 *     - `TextDetInferencer(save_pred=True)`: `<out_dir>/preds/<stem>.json` holding
 *       `{ polygons?, bboxes?, scores }` (mmocr/apis/inferencers/textdet_inferencer.py pred2dict;
 *       the file name is `osp.splitext(osp.basename(img_path))[0] + '.json'`,
 *       base_mmocr_inferencer.py postprocess);
 *     - MMOCR 0.x `mmocr/utils/ocr.py --export DIR`: `DIR/out_<stem>.json` (the `out_` prefix is
 *       ocr.py's, not the image's) holding the detector's `{ boundary_result: [[…, score]] }`, or
 *       with a recogniser and `--details`, `{ filename: <stem>, result: [{ box, box_score, text,
 *       text_score }] }` (det_recog_kie_inference; `box` is the rounded polygon);
 *  4. ICDAR2015 submission: a folder or `.zip` of `res_img_<n>.txt` (icdarSubmission.ts);
 *  5. PaddleOCR's `<image>\t<JSON boxes>` lines: `infer_det.py`'s `predicts_*.txt`,
 *     `predict_system.py`'s `system_results.txt`, `predict_det.py`'s `det_results.txt`
 *     (paddleLines.ts).
 * Images are matched by file name, then by stem. A bad entry costs that entry, with a warning.
 */
import { MemorySource, basename, filesUnder, stem, type FileSource } from '../../io/fileSource';
import { decodeText, forEachLine, tooLongText } from '../../io/text';
import { InputError, type LoadedPredictions, type PredictionInput, type RunContext } from '../../model';
import type { LtbDataset } from './dataset';
import { isObject, parsePolygon, parsePythonJson, parseScore, WarningList } from './values';
import { unzip, ZIP_LIMITS } from '../../io/zip';
import { layoutSentence, parseIcdarSubmission, type NinthReading } from './icdarSubmission';
import { PADDLE_LINE, parsePaddleLine } from './paddleLines';

/**
 * One image's predictions, packed: a dense detector's 1 GB JSONL holds ~20 million polygons, and
 * one JS array per polygon (plus the parsed line kept around) would not fit a 4 GB heap. Typed
 * arrays live outside the JS heap and cost 8 bytes a coordinate.
 */
export interface LtbPredImage {
  /** Every polygon's flat coordinates back to back; polygon k is coords[start[k]] … coords[start[k + 1] - 1]. */
  coords: Float64Array;
  /** n + 1 offsets into `coords`. */
  start: Uint32Array;
  scores: Float64Array;
}

/** Polygon k of an image as a fresh flat array `[x1, y1, …]`. */
export function predPolygon(p: LtbPredImage, k: number): number[] {
  const a = p.start[k];
  const out = new Array<number>(p.start[k + 1] - a);
  // A plain loop: Array.from on a typed array goes through its iterator, several times slower.
  for (let i = 0; i < out.length; i++) out[i] = p.coords[a + i];
  return out;
}

/** Number of coordinates of polygon k (twice its points). */
export function predLength(p: LtbPredImage, k: number): number {
  return p.start[k + 1] - p.start[k];
}

/**
 * Typed-array views carved out of a few large buffers. One ArrayBuffer per image (30,000 of them
 * for a 10,000-image file) makes V8 account external memory that often and start extra garbage
 * collections; slabs of 8 MiB are shared by the images of one model and freed with it.
 */
class Slabs {
  private static readonly SLAB = 1 << 20; // elements: 8 MiB of float64
  private f64 = new Float64Array(0);
  private f64Used = 0;
  private u32 = new Uint32Array(0);
  private u32Used = 0;
  float64(n: number): Float64Array {
    if (this.f64Used + n > this.f64.length) {
      this.f64 = new Float64Array(Math.max(Slabs.SLAB, n));
      this.f64Used = 0;
    }
    return this.f64.subarray(this.f64Used, (this.f64Used += n));
  }
  uint32(n: number): Uint32Array {
    if (this.u32Used + n > this.u32.length) {
      this.u32 = new Uint32Array(Math.max(Slabs.SLAB, n));
      this.u32Used = 0;
    }
    return this.u32.subarray(this.u32Used, (this.u32Used += n));
  }
}

/**
 * Collects one image's polygons while its entry is read; `pack` copies them into the model's
 * slabs. One image is built at a time, so all builders share one growable buffer.
 */
class PredBuilder {
  private static buf = new Float64Array(1 << 16);
  private n = 0;
  private start: number[] = [0];
  private scores: number[] = [];
  push(poly: readonly number[], score: number): void {
    let buf = PredBuilder.buf;
    if (this.n + poly.length > buf.length) {
      const bigger = new Float64Array(Math.max(buf.length * 2, this.n + poly.length));
      bigger.set(buf.subarray(0, this.n));
      buf = PredBuilder.buf = bigger;
    }
    for (let i = 0; i < poly.length; i++) buf[this.n++] = poly[i];
    this.start.push(this.n);
    this.scores.push(score);
  }
  pack(slabs: Slabs): LtbPredImage {
    const coords = slabs.float64(this.n);
    coords.set(PredBuilder.buf.subarray(0, this.n));
    const start = slabs.uint32(this.start.length);
    start.set(this.start);
    const scores = slabs.float64(this.scores.length);
    scores.set(this.scores);
    return { coords, start, scores };
  }
}

export interface LtbPredictions {
  /** Aligned with `dataset.images`; undefined = the image has no prediction entry. */
  images: (LtbPredImage | undefined)[];
  format: string;
  /** The file or folder read, as messages name it. */
  source: string;
  /** Records (entries, lines, per-image files) that named an image of the dataset. */
  joined: number;
  /**
   * A well-formed document with no record at all (`{}`, `[]`): a model that detected nothing,
   * which is scored (spec audit), unlike a file whose records all failed.
   */
  emptyDocument: boolean;
  /**
   * An ICDAR submission whose files have nine-field lines: their texts (kept to read them again
   * with option icdar_ninth, icdarNinth.ts) and what the 9th field was read as, per file.
   */
  icdar?: { files: { name: string; text: string }[]; ninth: Map<string, 'confidence' | 'transcription'> };
}

export const PREDICTION_FORMATS =
  'JSON {image: [[x1, y1, …, score]]}, JSON [{filename|img_path, boundary_result}], MMOCR det_polygons/det_scores ' +
  'or polygons/scores (JSONL or a folder of per-image JSON, e.g. preds/ or out_<stem>.json), ' +
  'PaddleOCR <image>\\t<JSON> lines (predicts_*.txt, system_results.txt), or ICDAR2015 res_img_<n>.txt (folder or .zip)';

/** `list` value meaning "the k-th entry of a {image: [entries]} object" (numbered from 1). */
const ENTRY = '\0entry';

/** "m.jsonl: line 3: det_polygons[7]", "model.json: img_1.jpg entry 8", or `at` alone. */
function whereText(at: string, list?: string, k?: number): string {
  if (list === undefined || k === undefined) return at;
  return list === ENTRY ? `${at} entry ${k + 1}` : `${at}: ${list}[${k}]`;
}

/** Collects one model's predictions, matching image names and counting what it had to drop. */
class Collector {
  readonly images: (LtbPredImage | undefined)[];
  private readonly from: string[] = [];
  private building: { index: number; builder: PredBuilder } | null = null;
  private readonly slabs = new Slabs();
  readonly warnings = new WarningList();
  readonly counts = { predictions: 0, dropped_polygons: 0, malformed_lines: 0, unknown_images: 0 };
  /** Records that named an image of the dataset. */
  private joined = 0;
  /** How the files of an ICDAR submission were read: layout → its sentence (from the first file) and files. */
  private readonly layouts = new Map<string, { said: string; files: string[] }>();
  /** Files whose boxes carry no confidence (PaddleOCR), and how many boxes. */
  private readonly unscored = new Map<string, number>();
  /** ICDAR files read so far (their text) and the reading of each one's 9th field. */
  private readonly icdarFiles: { name: string; text: string }[] = [];
  private readonly ninth = new Map<string, 'confidence' | 'transcription'>();
  emptyDocument = false;

  constructor(private readonly ds: LtbDataset) {
    this.images = new Array(ds.images.length).fill(undefined);
  }

  private match(name: string): number | undefined {
    const b = basename(name);
    return this.ds.byName.get(b) ?? this.ds.byStem.get(stem(b));
  }

  /** Does `name` name an image of the dataset? */
  knows(name: string): boolean {
    return this.match(name) !== undefined;
  }

  /**
   * Registers the image an entry is for and returns its builder; undefined (with a warning) when
   * it cannot be used. The caller fills it and then calls `done`.
   */
  image(name: string, where: string): PredBuilder | undefined {
    this.done(); // builders share one buffer: never start one before the last is packed
    const i = this.match(name);
    if (i === undefined) {
      this.counts.unknown_images++;
      this.warnings.add(`${where}: ${name} is not an image of the dataset (its predictions are ignored)`);
      return undefined;
    }
    if (this.images[i]) {
      this.warnings.add(`${where}: predictions for ${this.ds.images[i].name} were already given by ${this.from[i]} (these are ignored)`);
      return undefined;
    }
    this.from[i] = where;
    this.joined++;
    this.building = { index: i, builder: new PredBuilder() };
    return this.building.builder;
  }

  /** Packs the image `image` returned last. */
  done(): void {
    if (!this.building) return;
    this.images[this.building.index] = this.building.builder.pack(this.slabs);
    this.building = null;
  }

  /**
   * Adds one polygon. Where it came from is passed in pieces and put into words only for a
   * warning: a dense detector's file holds ~20 million polygons and nearly all of them are fine.
   */
  add(img: PredBuilder, poly: unknown, score: unknown, at: string, list?: string, k?: number): void {
    const p = parsePolygon(poly);
    const s = parseScore(score);
    if (typeof p === 'string' || typeof s === 'string') {
      this.counts.dropped_polygons++;
      this.warnings.add(`${whereText(at, list, k)}: ${typeof p === 'string' ? p : s} (dropped)`);
      return;
    }
    img.push(p, s);
    this.counts.predictions++;
  }

  /** `[x1, y1, …, xn, yn, score]` */
  addWithScore(img: PredBuilder, entry: unknown, at: string, list: string, k: number): void {
    if (!Array.isArray(entry)) {
      this.counts.dropped_polygons++;
      this.warnings.add(`${whereText(at, list, k)}: not a list [x1, y1, …, score] (dropped)`);
      return;
    }
    if (entry.length % 2 === 0 && entry.length >= 6 && entry.every((v) => typeof v === 'number')) {
      this.counts.dropped_polygons++;
      this.warnings.add(`${whereText(at, list, k)}: ${entry.length} numbers: expected x1, y1, …, xn, yn, score (no score?) (dropped)`);
      return;
    }
    // The entry was parsed for us alone: take the score off its end instead of copying the polygon.
    const score = entry.pop();
    this.add(img, entry, score, at, list, k);
  }

  /** One record of forms 2 and 3. */
  record(rec: unknown, where: string, fallbackName?: string): void {
    // PaddleOCR 3.x (PaddleX) results print and save as { res: { input_path, dt_polys, … } }.
    if (isObject(rec) && isObject(rec.res) && !Array.isArray(rec.det_polygons)) rec = rec.res;
    if (!isObject(rec)) {
      this.counts.malformed_lines++;
      this.warnings.add(`${where}: not an object`);
      return;
    }
    const name = [rec.img_path, rec.filename, rec.file_name, rec.image, rec.input_path].find((v) => typeof v === 'string' && v !== '') as string | undefined;
    const label = name ?? fallbackName;
    if (label === undefined) {
      this.counts.malformed_lines++;
      this.warnings.add(`${where}: no img_path or filename (cannot tell which image)`);
      return;
    }
    if (Array.isArray(rec.det_polygons)) {
      const img = this.image(label, where);
      if (!img) return;
      const scores = Array.isArray(rec.det_scores) ? rec.det_scores : [];
      if (scores.length !== rec.det_polygons.length) {
        this.warnings.add(`${where}: ${rec.det_polygons.length} det_polygons but ${scores.length} det_scores (unpaired ones dropped)`);
        this.counts.dropped_polygons += Math.abs(scores.length - rec.det_polygons.length);
      }
      const n = Math.min(scores.length, rec.det_polygons.length);
      for (let k = 0; k < n; k++) this.add(img, rec.det_polygons[k], scores[k], where, 'det_polygons', k);
      this.done();
      return;
    }
    if (Array.isArray(rec.boundary_result)) {
      const img = this.image(label, where);
      if (!img) return;
      rec.boundary_result.forEach((e, k) => this.addWithScore(img, e, where, 'boundary_result', k));
      this.done();
      return;
    }
    // MMOCR 1.x TextDetInferencer: polygons (or, for box detectors, bboxes) with scores.
    const list = Array.isArray(rec.polygons) ? 'polygons' : Array.isArray(rec.bboxes) ? 'bboxes' : undefined;
    if (list) {
      const img = this.image(label, where);
      if (!img) return;
      const polys = rec[list] as unknown[];
      const scores = Array.isArray(rec.scores) ? rec.scores : [];
      if (scores.length !== polys.length) {
        this.warnings.add(`${where}: ${polys.length} ${list} but ${scores.length} scores (unpaired ones dropped)`);
        this.counts.dropped_polygons += Math.abs(scores.length - polys.length);
      }
      const n = Math.min(scores.length, polys.length);
      for (let k = 0; k < n; k++) this.add(img, list === 'bboxes' ? boxPolygon(polys[k]) : polys[k], scores[k], where, list, k);
      this.done();
      return;
    }
    // PaddleOCR 3.x TextDetection: dt_polys [[[x, y], …]] with dt_scores; the OCR pipeline's
    // result has dt_polys but keeps no detection score (rec_scores are the recogniser's).
    if (Array.isArray(rec.dt_polys)) {
      const polys = rec.dt_polys;
      // input_path may be a temporary copy (an array or URL input): then the file name tells.
      const img = this.image(name !== undefined && !this.knows(name) && fallbackName !== undefined ? fallbackName : label, where);
      if (!img) return;
      const scores = Array.isArray(rec.dt_scores) && rec.dt_scores.length === polys.length ? rec.dt_scores : undefined;
      const file = where.split(': ')[0];
      if (!scores && polys.length > 0) this.unscored.set(file, (this.unscored.get(file) ?? 0) + polys.length);
      polys.forEach((p, k) => this.add(img, p, scores ? scores[k] : 1.0, where, 'dt_polys', k));
      this.done();
      return;
    }
    // MMOCR 0.x ocr.py --details: result: [{ box, box_score, text, text_score }].
    if (Array.isArray(rec.result)) {
      const img = this.image(label, where);
      if (!img) return;
      rec.result.forEach((e, k) => {
        if (!isObject(e)) this.add(img, undefined, undefined, where, 'result', k);
        else this.add(img, e.box, e.box_score, where, 'result', k);
      });
      this.done();
      return;
    }
    this.counts.malformed_lines++;
    if (Array.isArray(rec.text)) {
      this.warnings.add(`${where}: texts but no boxes (MMOCR ocr.py exports boxes only with --details)`);
      return;
    }
    this.warnings.add(`${where}: no det_polygons, polygons, boundary_result or result`);
  }

  /** Form 1: `{ image: [[…, score], …] }`. */
  object(doc: Record<string, unknown>, file: string): void {
    for (const [name, entries] of Object.entries(doc)) {
      if (!Array.isArray(entries)) {
        this.counts.malformed_lines++;
        this.warnings.add(`${file}: "${name}": not a list of [x1, y1, …, score] entries`);
        continue;
      }
      const img = this.image(name, file);
      if (!img) continue;
      entries.forEach((e, k) => this.addWithScore(img, e, `${file}: ${name}`, ENTRY, k));
      this.done();
    }
  }

  /** Form 4: one `res_img_<n>.txt`; how its extra fields were read is said once per model. */
  icdar(text: string, file: string, reading: NinthReading = 'auto'): void {
    // Kept before the image is looked up, so that a re-read repeats every warning.
    this.icdarFiles.push({ name: file, text });
    const st = stem(file).replace(/^res_/i, '');
    const img = this.image(st, file);
    if (!img) return;
    const parsed = parseIcdarSubmission(text, reading);
    if (parsed.ninth) this.ninth.set(file, parsed.ninth);
    for (const why of parsed.bad) {
      this.counts.malformed_lines++;
      this.warnings.add(`${file}: ${why}`);
    }
    for (const p of parsed.polygons) this.add(img, p.coords, p.score, `${file}: line ${p.line}`);
    this.done();
    const seen = this.layouts.get(parsed.layout);
    if (seen) seen.files.push(file);
    else {
      const said = layoutSentence(parsed.layout, parsed.because, file);
      if (said) this.layouts.set(parsed.layout, { said, files: [file] });
    }
  }

  /** Form 5: one PaddleOCR line `<image>\t<JSON boxes>`. */
  paddle(line: string, file: string, n: number): void {
    const where = `${file}: line ${n}`;
    const parsed = parsePaddleLine(line);
    if (typeof parsed === 'string') {
      this.counts.malformed_lines++;
      this.warnings.add(`${where}: ${parsed}`);
      return;
    }
    const img = this.image(parsed.image, where);
    if (!img) return;
    let unscored = 0;
    parsed.boxes.forEach((b, k) => {
      if (b.score === undefined) unscored++;
      this.add(img, b.points, b.score ?? 1.0, where, 'boxes', k);
    });
    this.done();
    if (unscored) this.unscored.set(file, (this.unscored.get(file) ?? 0) + unscored);
  }

  result(model: string, format: string, source: string): LoadedPredictions<LtbPredictions> {
    // An image listed twice in the GT is two samples with the same predictions.
    this.ds.images.forEach((im, i) => {
      if (im.dupOf !== undefined) this.images[i] = this.images[im.dupOf];
    });
    const with_ = this.images.filter((x) => x).length;
    const counts = {
      ...this.counts,
      images_with_predictions: with_,
      images_without_predictions: this.images.length - with_,
    };
    // How the file was read comes before the per-line problems.
    const said: string[] = [];
    for (const { said: sentence, files } of this.layouts.values()) {
      const named = files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '');
      said.push(`${files.length} res file(s), ${sentence}: ${named}`);
    }
    if (this.unscored.size > 0) {
      // One line per model, not per file: a folder of 10,000 per-image files says it once.
      const files = [...this.unscored.keys()];
      const boxes = [...this.unscored.values()].reduce((a, b) => a + b, 0);
      const named = files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more file(s)` : '');
      said.push(`${named}: ${boxes} box(es) carry no confidence (PaddleOCR writes none): each scores 1.0, so the threshold sweep cannot drop them`);
    }
    const data: LtbPredictions = { images: this.images, format, source, joined: this.joined, emptyDocument: this.emptyDocument };
    if (this.ninth.size > 0) data.icdar = { files: this.icdarFiles, ninth: this.ninth };
    return { model, data, warnings: [...said, ...this.warnings.list()], counts };
  }
}

/**
 * MMOCR inferencer JSONL, one line at a time: each line is parsed, packed into its image's typed
 * arrays and dropped, so a 1 GB file never exists as parsed objects (ctx: bytes read, cancel).
 */
async function readJsonlInto(c: Collector, src: FileSource, path: string, model: string, ctx?: RunContext): Promise<LoadedPredictions<LtbPredictions>> {
  const file = basename(path);
  let rows = 0;
  let malformed = 0;
  await forEachLine(
    src,
    path,
    (line, n) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        malformed++;
        c.counts.malformed_lines++;
        c.warnings.add(`${file}: line ${n}: not valid JSON`);
        return;
      }
      rows++;
      try {
        c.record(value, `${file}: line ${n}`);
      } catch (e) {
        // Out of stack or string length on one pathological line: that line, not the file.
        if (!(e instanceof RangeError)) throw e;
        c.done();
        c.counts.malformed_lines++;
        c.warnings.add(`${file}: line ${n}: cannot be read (${e.message})`);
      }
    },
    ctx,
    {
      tooLong: (n, bytes) => {
        malformed++;
        c.counts.malformed_lines++;
        c.warnings.add(`${file}: line ${n}: ${tooLongText(bytes)} (skipped)`);
      },
    },
  );
  if (rows === 0) throw new InputError(`${file}: no prediction lines${malformed ? ` (${malformed} malformed)` : ''}`);
  return c.result(model, 'mmocr-jsonl', file);
}

/**
 * JavaScript strings stop at 2^29 - 24 characters, so a JSON document much over 512 MiB cannot be
 * decoded and parsed in one piece by any browser; JSONL streams at any size.
 */
const JSON_TEXT_LIMIT = 512 * 2 ** 20;

/** A JSONL text: a first line that is one whole object, followed by another object's line. */
const JSONL_START = /^\s*\{[^\n]*\}\s*\r?\n\s*\{/;

/** Reads one prediction file (JSON, JSONL, res_*.txt or .zip) as one model. */
async function readFile(ds: LtbDataset, src: FileSource, path: string, model: string, ctx?: RunContext): Promise<LoadedPredictions<LtbPredictions>> {
  const c = new Collector(ds);
  const file = basename(path);
  if (/\.zip$/i.test(path)) {
    // An archive bigger than what it may unpack to is refused before it is read into memory.
    const zipSize = src.list().find((e) => e.path === path)?.size ?? 0;
    if (zipSize > ZIP_LIMITS.totalBytes) throw new InputError(`${file}: a ${Math.round(zipSize / 2 ** 20)} MiB archive, more than the ${ZIP_LIMITS.totalBytes / 2 ** 20} MiB an archive may hold; unpack it and give the folder`);
    let entries;
    try {
      entries = await unzip(await src.read(path));
    } catch (e) {
      throw new InputError(`${file}: ${(e as Error).message}`);
    }
    // An archive inside the archive would get a fresh size budget of its own (42.zip nests five
    // levels of bombs): refused, the user unpacks it once.
    const nested = entries.find((e) => /\.zip$/i.test(e.name));
    if (nested) throw new InputError(`${file}: holds another archive (${nested.name}); archives inside archives are not read, unpack it first`);
    const mem = new MemorySource(file, Object.fromEntries(entries.map((e) => [e.name, e.data])));
    let inner: LoadedPredictions<LtbPredictions>[];
    try {
      inner = await readFolder(ds, mem, '', model, ctx);
    } catch (e) {
      // Name the archive, not the model, in the one-line error.
      if (e instanceof InputError) throw new InputError(`${file}: ${e.message.replace(/^[^:]*: /, '')}`);
      throw e;
    }
    if (inner.length !== 1) throw new InputError(`${file}: expected the files of one submission (res_img_<n>.txt) inside`);
    return inner[0];
  }
  if (/\.txt$/i.test(path)) {
    // PaddleOCR's <image>\t<JSON> lines, whatever the file is called; else an ICDAR res file.
    const head = decodeText(src.readRange ? await src.readRange(path, 0, 4096) : (await src.read(path)).subarray(0, 4096));
    const first = head.split('\n').find((l) => l.trim() !== '') ?? '';
    if (!/^res_/i.test(file) && PADDLE_LINE.test(first.replace(/^\uFEFF/, ''))) return readPaddleInto(c, src, path, model, ctx);
    c.icdar(decodeText(await src.read(path)), file);
    return c.result(model, 'icdar2015', file);
  }
  if (/\.jsonl$/i.test(path)) return readJsonlInto(c, src, path, model, ctx);
  if (!/\.json$/i.test(path)) throw new InputError(`${file}: not an LTB prediction file (expected ${PREDICTION_FORMATS})`);
  const size = src.list().find((e) => e.path === path)?.size ?? 0;
  if (size > JSON_TEXT_LIMIT) {
    // Too big for one string: fine if it is JSONL under a .json name, else say what to do.
    const head = src.readRange ? decodeText(await src.readRange(path, 0, 4 << 20)) : '';
    if (JSONL_START.test(head)) return readJsonlInto(c, src, path, model, ctx);
    throw new InputError(
      `${file}: a ${Math.round(size / 2 ** 20)} MiB JSON document is more than a browser can parse in one piece (512 MiB); ` +
        'write one image per line as JSONL ({"img_path", "det_polygons", "det_scores"}), which is read in a stream at any size',
    );
  }
  const text = decodeText(await src.read(path));
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    // A .json that is really JSONL (one object per line) is common; read it as such.
    if (JSONL_START.test(text)) return readJsonlInto(c, src, path, model, ctx);
    // Python's json.dump writes NaN / Infinity for non-finite floats: read those as null.
    const py = parsePythonJson(text);
    if (!py) throw new InputError(`${file}: not valid JSON (${(e as Error).message})`);
    c.warnings.add(`${file}: NaN / Infinity tokens (not JSON) read as null; the entries holding them are dropped`);
    doc = py.value;
  }
  return readDocument(c, doc, file, model);
}

function readDocument(c: Collector, doc: unknown, file: string, model: string): LoadedPredictions<LtbPredictions> {
  if (Array.isArray(doc)) {
    c.emptyDocument = doc.length === 0;
    doc.forEach((rec, i) => c.record(rec, `${file}: entry ${i + 1}`));
    return c.result(model, 'json-list', file);
  }
  if (isObject(doc)) {
    if (Array.isArray(doc.predictions)) {
      // MMOCR 1.0.0rc `pred_out_file` dumps {predictions: [{polygons, scores}]} in input order,
      // with no image names (base_mmocr_inferencer.py postprocess): nothing can be joined.
      const named = (r: unknown) => isObject(r) && [r.img_path, r.filename, r.file_name, r.image, r.input_path].some((v) => typeof v === 'string' && v !== '');
      if (doc.predictions.length > 0 && !doc.predictions.some(named)) {
        throw new InputError(
          `${file}: {predictions: [...]} without image names (as MMOCR 1.0.0rc pred_out_file writes it): the images cannot be told apart — ` +
            're-run the inferencer with save_pred=True, which writes preds/<image stem>.json per image',
        );
      }
      doc.predictions.forEach((rec, i) => c.record(rec, `${file}: predictions[${i}]`));
      return c.result(model, 'mmocr-inferencer', file);
    }
    if (isPerImageRecord(doc)) {
      c.record(doc, file, imageKeyOfFile(file, c));
      return c.result(model, 'mmocr-json', file);
    }
    const values = Object.values(doc);
    // An empty object is a model that detected nothing: valid, every image has no predictions.
    // A value that is not a list costs that image (with a warning) once some key names an image.
    if (values.every((v) => Array.isArray(v)) || Object.keys(doc).some((k) => c.knows(k))) {
      c.emptyDocument = values.length === 0;
      c.object(doc, file);
      return c.result(model, 'json-object', file);
    }
  }
  throw new InputError(`${file}: not an LTB prediction file (expected ${PREDICTION_FORMATS})`);
}

/** A folder: an ICDAR submission, a folder of per-image MMOCR JSON, or several prediction files. */
async function readFolder(ds: LtbDataset, src: FileSource, dir: string, model: string, ctx?: RunContext): Promise<LoadedPredictions<LtbPredictions>[]> {
  const files = filesUnder(src, dir).filter((e) => !basename(e.path).startsWith('.'));
  const label = dir === '' ? src.label : basename(dir);
  const res = files.filter((e) => /^res_.*\.txt$/i.test(basename(e.path)));
  if (res.length > 0) {
    const c = new Collector(ds);
    for (const e of res) c.icdar(decodeText(await src.read(e.path)), basename(e.path));
    return [c.result(model, 'icdar2015', label)];
  }
  // Per-image JSON (MMOCR 1.x preds/<stem>.json, MMOCR 0.x out_<stem>.json): ONE model, when at
  // least half of the files name an image of the dataset by their name.
  const probe = new Collector(ds);
  const jsons = files.filter((e) => /\.json$/i.test(e.path));
  const perImage = jsons.filter((e) => probe.knows(imageKeyOfFile(basename(e.path), probe)));
  if (perImage.length > 0 && perImage.length >= jsons.length / 2) {
    const c = new Collector(ds);
    for (const e of jsons) {
      ctx?.signal?.throwIfAborted();
      const name = basename(e.path);
      let doc: unknown;
      const text = decodeText(await src.read(e.path));
      try {
        doc = JSON.parse(text);
      } catch {
        const py = parsePythonJson(text);
        if (!py) {
          c.counts.malformed_lines++;
          c.warnings.add(`${name}: not valid JSON (file skipped)`);
          continue;
        }
        c.warnings.add(`${name}: NaN / Infinity tokens (not JSON) read as null; the entries holding them are dropped`);
        doc = py.value;
      }
      // The file name names the image; an img_path / filename inside wins when present.
      c.record(doc, name, imageKeyOfFile(name, c));
    }
    return [c.result(model, 'mmocr-folder', label)];
  }
  const singles: typeof files = [];
  for (const e of files) {
    if (/\.(json|jsonl|zip)$/i.test(e.path)) singles.push(e);
    else if (/\.txt$/i.test(e.path) && (await isPaddleFile(src, e.path))) singles.push(e);
  }
  if (singles.length === 0) throw new InputError(`${model}: no prediction files found (expected ${PREDICTION_FORMATS})`);
  const out: LoadedPredictions<LtbPredictions>[] = [];
  for (const e of singles) out.push(await readFile(ds, src, e.path, singles.length === 1 ? model : stem(e.path), ctx));
  return out;
}

/** Does a text file start with PaddleOCR's `<image>\t[` line? (Reads its first 4 KiB.) */
async function isPaddleFile(src: FileSource, path: string): Promise<boolean> {
  const bytes = src.readRange ? await src.readRange(path, 0, 4096) : (await src.read(path)).subarray(0, 4096);
  const first = decodeText(bytes).split('\n').find((l) => l.trim() !== '') ?? '';
  return PADDLE_LINE.test(first.replace(/^\uFEFF/, ''));
}

/** PaddleOCR lines, streamed (a system_results.txt of a big test set is one line per image). */
async function readPaddleInto(c: Collector, src: FileSource, path: string, model: string, ctx?: RunContext): Promise<LoadedPredictions<LtbPredictions>> {
  const file = basename(path);
  await forEachLine(src, path, (line, n) => {
    if (line.trim() === '') return;
    c.paddle(line.replace(/^\uFEFF/, ''), file, n);
  }, ctx);
  return c.result(model, 'paddleocr', file);
}

/** A whole JSON document that is one image's record (MMOCR 0.x / 1.x per-image output). */
function isPerImageRecord(doc: Record<string, unknown>): boolean {
  const rec = isObject(doc.res) ? doc.res : doc;
  return ['det_polygons', 'boundary_result', 'polygons', 'bboxes', 'result', 'dt_polys'].some((k) => Array.isArray(rec[k]));
}

/**
 * The image a per-image file is for: its stem, or — for MMOCR 0.x `ocr.py --export`, which
 * writes `out_<stem>.json`, and PaddleOCR 3.x `save_to_json`, which writes `<stem>_res.json` —
 * the stem without that prefix / suffix when only that names an image.
 */
function imageKeyOfFile(name: string, c: Collector): string {
  const st = stem(name);
  if (c.knows(st)) return st;
  if (/^out_./.test(st) && c.knows(st.slice(4))) return st.slice(4);
  if (/._res$/.test(st) && c.knows(st.slice(0, -4))) return st.slice(0, -4);
  return st;
}

/** MMOCR's axis-aligned `[x1, y1, x2, y2]` as the 4-point polygon the metric compares. */
function boxPolygon(b: unknown): unknown {
  if (!Array.isArray(b) || b.length !== 4) return b; // parsePolygon says what is wrong with it
  const [x1, y1, x2, y2] = b as unknown[];
  return [x1, y1, x2, y1, x2, y2, x1, y2];
}

export async function loadLtbPredictions(
  ds: LtbDataset,
  input: PredictionInput,
  ctx?: RunContext,
): Promise<LoadedPredictions<LtbPredictions>[]> {
  ctx?.signal?.throwIfAborted();
  const isFile = input.path !== '' && input.source.list().some((e) => e.path === input.path);
  return isFile ? [await readFile(ds, input.source, input.path, input.name, ctx)] : readFolder(ds, input.source, input.path, input.name, ctx);
}

/**
 * An ICDAR submission read again with its 9th field read as `reading` (option icdar_ninth): the
 * same files, texts kept at load; synchronous, as scoring is.
 */
export function rereadIcdar(ds: LtbDataset, preds: LoadedPredictions<LtbPredictions>, reading: NinthReading): LoadedPredictions<LtbPredictions> {
  const files = preds.data.icdar?.files ?? [];
  const c = new Collector(ds);
  for (const f of files) c.icdar(f.text, f.name, reading);
  const out = c.result(preds.model, preds.data.format, preds.data.source);
  return { ...out, counts: { ...preds.counts, ...out.counts } };
}
