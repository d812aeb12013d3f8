/**
 * The Recognition target the official inference asks about, recomputed from the GT row alone
 * (shared/specs/chronicles.md, "The Recognition target when a prediction carries none"), for
 * answers that do not carry the `gt_char` infer.py stores (batch outputs, other tools' files).
 *
 * The official code (VirtualLUOUCAS/Chronicles-OCR, Opensource/prompts/referring.py):
 *
 *     def _build_sample_key(row):
 *         parts = []
 *         for k in ("image_path", "img_path", "image"):
 *             v = row.get(k)
 *             if v: parts.append(f"{k}={v}")
 *         sp = row.get("spotting")
 *         if isinstance(sp, list) and sp:
 *             fp = hashlib.md5(json.dumps(sp, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()[:12]
 *             parts.append(f"sp_fp={fp}")
 *         return "|".join(parts)
 *
 *     def _seeded_rng(key, seed):
 *         h = hashlib.md5(f"{seed}::{key}".encode("utf-8")).hexdigest()
 *         return random.Random(int(h[:16], 16))
 *
 *     def _pick_target(row, seed):   # candidates: dict items, item_char not UNK, bbox_to_xyxy not None
 *         ...
 *         sample_key = _build_sample_key(row) or "no-key"
 *         idx, ch, bb = _seeded_rng(sample_key, seed).choice(candidates)
 *
 * infer.py stores `gt_char` = ch, `target_bbox_xyxy` = bb as floats, `target_index` = idx,
 * `sample_key`, `seed` (its --seed, default 42).
 */
import { md5Hex } from './md5';
import { PyRandom } from './pyRandom';
import { pyJsonDumps, readPyJsonKey } from './pyJson';
import { isUnkChar } from './judge';
import { pyStr, pyTruthy } from './py';

export const DEFAULT_SEED = 42;

/** What a row's target depends on, fixed when the GT is read (GT corrections do not move it). */
export interface ReferringBasis {
  sample_key: string;
  /** Spotting items that can be asked about, in order: index in `spotting`, char, pixel xyxy. */
  candidates: { index: number; char: string; bbox: [number, number, number, number] }[];
}

export interface RecognitionTarget {
  index: number;
  char: string;
  bbox: [number, number, number, number];
  sample_key: string;
  seed: number;
}

/**
 * `sp_fp`: the first 12 hex digits of the md5 of the spotting list as Python dumps it. `lineText`
 * (the GT line) gives the numbers as written; without it, or when it has no number with a
 * fraction, an exponent or 16+ digits, the parsed value dumps the same.
 */
export function spottingFingerprint(spotting: unknown[], lineText?: string): string {
  let value: unknown = spotting;
  if (lineText !== undefined && /\d[.eE]|\d{16}/.test(lineText)) {
    const exact = readPyJsonKey(lineText, 'spotting');
    if (Array.isArray(exact)) value = exact;
  }
  return md5Hex(pyJsonDumps(value)).slice(0, 12);
}

/** `_build_sample_key(row) or "no-key"`. */
export function sampleKey(raw: Record<string, unknown>, lineText?: string): string {
  const parts: string[] = [];
  for (const k of ['image_path', 'img_path', 'image']) {
    const v = raw[k];
    if (pyTruthy(v)) parts.push(`${k}=${pyStr(v)}`);
  }
  const sp = raw.spotting;
  if (Array.isArray(sp) && sp.length > 0) parts.push(`sp_fp=${spottingFingerprint(sp, lineText)}`);
  return parts.join('|') || 'no-key';
}

/** The seed integer infer.py's generator starts from: `int(md5(f"{seed}::{key}")[:16], 16)`. */
export function seedInteger(key: string, seed: number): bigint {
  return BigInt(`0x${md5Hex(`${seed}::${key}`).slice(0, 16)}`);
}

/**
 * The basis of a row's target. `chars` are the row's readable GT characters (gt.ts: dict items
 * whose bbox converts, in spotting order, with their index); UNK ones cannot be asked about.
 */
export function referringBasis(
  raw: Record<string, unknown>,
  chars: readonly { index: number; char: string; bbox: [number, number, number, number] }[],
  lineText?: string,
): ReferringBasis | null {
  const candidates = chars.filter((c) => !isUnkChar(c.char)).map((c) => ({ index: c.index, char: c.char, bbox: c.bbox }));
  if (candidates.length === 0) return null;
  return { sample_key: sampleKey(raw, lineText), candidates };
}

/** `_pick_target(row, seed)` for a row's basis. */
export function pickTarget(basis: ReferringBasis, seed = DEFAULT_SEED): RecognitionTarget {
  const pick = new PyRandom(seedInteger(basis.sample_key, seed)).choice(basis.candidates);
  // -0 (JSON "-0", an int 0 to Python) is drawn and written as 0.
  const bbox = pick.bbox.map((v) => (v === 0 ? 0 : v)) as RecognitionTarget['bbox'];
  return { index: pick.index, char: pick.char, bbox, sample_key: basis.sample_key, seed };
}
