/**
 * One ICDAR2015-style `res_img_<n>.txt`, as detectors and end-to-end systems write it:
 *   x1,y1,x2,y2,x3,y3,x4,y4                         (detection, no confidence)
 *   x1,y1,…,x4,y4,confidence                        (ICDAR2015 Task 4.1 with confidences)
 *   x1,y1,…,x4,y4,transcription                     (Task 4.4 end-to-end)
 *   x1,y1,…,x4,y4,confidence,transcription          (end-to-end with confidences)
 * A transcription may itself be a number ("0", "2015"), so the 9th field is read per FILE: it is
 * a confidence only when, on every line of the file with nine fields, it is a finite number in
 * [0, 1]. A 10th field means "confidence, then transcription" (the transcription may hold
 * commas). Where a confidence must be and the value is not a finite number ("nan", "x"), the line
 * is dropped with a reason — it never becomes 1.0.
 *
 * Files whose lines carry more than four points (all-numeric lines of 11 or more fields, as a
 * curved-text detector writes them) are read as `x1,y1,…,xn,yn[,score]`: an odd count of
 * numbers ends with the score.
 */

export interface IcdarPolygon {
  /** 1-based line number. */
  line: number;
  coords: number[];
  score: number;
}

/** What the file's extra fields were read as; `said` is the sentence a warning uses. */
export type IcdarLayout = 'confidence' | 'none' | 'transcription' | 'confidence+transcription' | 'polygon' | 'mixed' | 'empty';

/**
 * How the 9th field of nine-field lines is read: `auto` by the file-level rule above, or as the
 * option `icdar_ninth` forces it (a file of confidences all `0` is also a file of transcriptions
 * "0"; the rule cannot tell them apart).
 */
export type NinthReading = 'auto' | 'confidence' | 'transcription';

export interface IcdarFile {
  polygons: IcdarPolygon[];
  /** What the 9th field of the file's nine-field lines was read as; null when it has none. */
  ninth: 'confidence' | 'transcription' | null;
  /** Lines that cost themselves: "line 3: …". */
  bad: string[];
  layout: IcdarLayout;
  /** For layout 'transcription': the value that could not be a confidence (`"2015" on line 2`). */
  because?: string;
}

const NON_FINITE = /^[+-]?(nan|inf|infinity)$/i;

function num(s: string): number {
  return s === '' ? NaN : Number(s);
}

export function parseIcdarSubmission(text: string, reading: NinthReading = 'auto'): IcdarFile {
  const rows: { line: number; fields: string[] }[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/^\uFEFF/, '').replace(/\r$/, '').trim();
    if (line !== '') rows.push({ line: i + 1, fields: line.split(',').map((s) => s.trim()) });
  });
  if (rows.length === 0) return { polygons: [], bad: [], layout: 'empty', ninth: null };
  const allNumeric = (f: string[]) => f.every((s) => Number.isFinite(num(s)));
  if (rows.some((r) => r.fields.length >= 11 && allNumeric(r.fields))) return readPolygons(rows);

  // The 9th field of nine-field lines: a confidence only if every one is a finite number in [0, 1].
  // A non-finite number token ("nan", "inf") does not make the file's 9th field a transcription:
  // it is a broken confidence, and costs its own line below.
  let because: string | undefined = reading === 'transcription' ? 'option icdar_ninth=transcription' : undefined;
  for (const r of rows) {
    if (reading !== 'auto' || r.fields.length !== 9) continue;
    const s = r.fields[8];
    if (NON_FINITE.test(s)) continue;
    const v = num(s);
    if (!(Number.isFinite(v) && v >= 0 && v <= 1)) {
      because = `"${s.length > 20 ? s.slice(0, 19) + '…' : s}" on line ${r.line}`;
      break;
    }
  }
  const ninthIsConfidence = because === undefined;

  const polygons: IcdarPolygon[] = [];
  const bad: string[] = [];
  const kinds = new Set<IcdarLayout>();
  for (const { line, fields } of rows) {
    if (fields.length < 8) {
      bad.push(`line ${line}: ${fields.length} field(s); expected x1,y1,…,x4,y4[,confidence][,transcription]`);
      continue;
    }
    const coords = fields.slice(0, 8).map(num);
    const k = coords.findIndex((v) => !Number.isFinite(v));
    if (k >= 0) {
      bad.push(`line ${line}: field ${k + 1} is not a number ("${fields[k]}")`);
      continue;
    }
    let score = 1.0;
    if (fields.length === 8) kinds.add('none');
    else if (fields.length === 9 && !ninthIsConfidence) kinds.add('transcription');
    else {
      // Nine fields in a confidence file, or ten and more: field 9 must be the confidence.
      const v = num(fields[8]);
      if (!Number.isFinite(v)) {
        const layout = fields.length === 9 ? 'x1,…,y4,confidence' : 'x1,…,y4,confidence,transcription';
        bad.push(`line ${line}: confidence "${fields[8]}" is not a finite number (read as ${layout}; dropped)`);
        continue;
      }
      score = v;
      kinds.add(fields.length === 9 ? 'confidence' : 'confidence+transcription');
    }
    polygons.push({ line, coords, score });
  }
  const layout: IcdarLayout = kinds.size === 0 ? (ninthIsConfidence ? 'confidence' : 'transcription') : kinds.size === 1 ? [...kinds][0] : 'mixed';
  const ninth = rows.some((r) => r.fields.length === 9) ? (ninthIsConfidence ? 'confidence' : 'transcription') : null;
  return { polygons, bad, layout, ninth, because: ninthIsConfidence ? undefined : because };
}

/** `x1,y1,…,xn,yn[,score][,transcription]`: the numeric run before any text; odd ends with the score. */
function readPolygons(rows: { line: number; fields: string[] }[]): IcdarFile {
  const polygons: IcdarPolygon[] = [];
  const bad: string[] = [];
  for (const { line, fields } of rows) {
    const nums = fields.map(num);
    let n = nums.findIndex((v) => !Number.isFinite(v));
    if (n < 0) n = nums.length;
    else if (n < 8) {
      bad.push(`line ${line}: field ${n + 1} is not a number ("${fields[n]}")`);
      continue;
    }
    const odd = n % 2 === 1;
    const coords = nums.slice(0, odd ? n - 1 : n);
    if (coords.length < 6) {
      bad.push(`line ${line}: polygon with ${Math.floor(coords.length / 2)} point(s)`);
      continue;
    }
    polygons.push({ line, coords, score: odd ? nums[n - 1] : 1.0 });
  }
  return { polygons, bad, layout: 'polygon', ninth: null };
}

/** The sentence saying how files of one layout were read (none for plain confidences). */
export function layoutSentence(layout: IcdarLayout, because?: string, file?: string): string | null {
  switch (layout) {
    case 'none':
      return 'lines x1,y1,…,x4,y4 with no confidence: every polygon scores 1.0';
    case 'transcription':
      if (because?.startsWith('option ')) return `field 9 read as a transcription, not a confidence (${because}): every polygon scores 1.0`;
      return `field 9 read as a transcription, not a confidence${because ? ` (${because}${file ? ` of ${file}` : ''} is not a number in [0, 1])` : ''}: every polygon scores 1.0`;
    case 'confidence+transcription':
      return 'lines x1,…,y4,confidence,transcription: field 9 is the confidence, the rest the transcription (not scored)';
    case 'polygon':
      return 'polygons of more than 4 points (x1,y1,…,xn,yn[,score]): an odd count of numbers ends with the score';
    case 'mixed':
      return 'lines of several layouts in one file (with and without a confidence or a transcription); a line without a confidence scores 1.0';
    default:
      return null;
  }
}
