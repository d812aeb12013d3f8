/**
 * The recomputed Recognition target against CPython itself (when python3 is on the machine): random
 * GT lines — float and int coordinates written in several ways, huge ints, non-ASCII, escapes,
 * repeated and astral keys, UNK items, unusable boxes — go through Python's own json / hashlib /
 * random with the official `_build_sample_key` / `_pick_target` logic (prompts/referring.py,
 * utils/bbox.py, utils/unk.py), and through recognitionTarget.ts from the same text.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rng } from '../ltb/synthetic';
import { parseGtRow } from './gt';
import { pickTarget, sampleKey } from './recognitionTarget';

const HAS_PYTHON = existsSync('/usr/bin/python3');

// The official logic, on Python's own json.loads of each line (seed 42 and 7).
const PY = String.raw`
import hashlib, json, random, sys
def is_unk_char(ch):
    if not ch: return True
    s = ch.strip()
    if not s: return True
    if len(s) <= 5 and s.lower() in {"[unk]", "<unk>", "unk"}: return True
    return all(c in "\u25a1\u25a0\u25a2\u25fb\u25fc" for c in s)
def item_char(item):
    ch = item.get("modern_char")
    if ch is None: ch = item.get("text", "")
    return str(ch or "").strip()
def bbox_to_xyxy(item):
    bbox = item.get("bbox")
    if isinstance(bbox, dict):
        try: x1, y1, x2, y2 = (float(bbox[k]) for k in ("x1", "y1", "x2", "y2"))
        except (KeyError, TypeError, ValueError): return None
    elif isinstance(bbox, (list, tuple)) and len(bbox) == 4:
        try: bx = [float(v) for v in bbox]
        except (TypeError, ValueError): return None
        if "modern_char" in item or bx[2] < bx[0] or bx[3] < bx[1]: x1, y1, x2, y2 = bx[0], bx[1], bx[0] + bx[2], bx[1] + bx[3]
        else: x1, y1, x2, y2 = bx
    else: return None
    return (x1, y1, x2, y2) if (x2 > x1 and y2 > y1) else None
def key_of(row):
    parts = []
    for k in ("image_path", "img_path", "image"):
        v = row.get(k)
        if v: parts.append(f"{k}={v}")
    sp = row.get("spotting")
    if isinstance(sp, list) and sp:
        parts.append("sp_fp=" + hashlib.md5(json.dumps(sp, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()[:12])
    return "|".join(parts)
def pick(row, seed):
    sp = row.get("spotting") or []
    cands = []
    for idx, it in enumerate(sp):
        if not isinstance(it, dict): continue
        ch = item_char(it)
        if is_unk_char(ch): continue
        bb = bbox_to_xyxy(it)
        if bb is None: continue
        cands.append((idx, ch, bb))
    if not cands: return None
    key = key_of(row) or "no-key"
    h = hashlib.md5(f"{seed}::{key}".encode("utf-8")).hexdigest()
    idx, ch, bb = random.Random(int(h[:16], 16)).choice(cands)
    return [idx, ch, [float(v) for v in bb], key]
for line in open(sys.argv[1], encoding="utf-8"):
    row = json.loads(line)
    print(json.dumps([key_of(row) or "no-key", pick(row, 42), pick(row, 7)], ensure_ascii=False))
`;

/** Random GT lines, written as text so that numbers keep their spelling (1.0, 2e2, 1E-5, …). */
function randomLines(n: number): string[] {
  const rand = rng(4242);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const num = () => {
    const v = Math.floor(rand() * 900);
    return pick([`${v}`, `${v}.0`, `${v}.5`, `${v / 10}`, `${v}e0`, `${v}E-1`, `${v}.25e1`, `${v}.000001`, '12345678901234567890', '1e-07', '-0', '0.1']);
  };
  const chars = ['王', '贞', '[UNK]', '□', '', ' 雨 ', 'a"b', 'x\\y', '\u{20000}', 'unk', null, 7];
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const items: string[] = [];
    for (let k = 0, m = Math.floor(rand() * 9); k < m; k++) {
      const c = pick(chars);
      const charField = rand() < 0.5 ? `"modern_char": ${JSON.stringify(c)}` : `"text": ${JSON.stringify(c)}`;
      const bbox = rand() < 0.3 ? `{"x1": ${num()}, "y1": ${num()}, "x2": ${num()}, "y2": ${num()}}` : `[${num()}, ${num()}, ${num()}, ${num()}]`;
      const extra = pick(['', ', "z": 1', ', "\u{1F600}": "e", "\uFF01": 2', ', "score": 0.9, "score": 1.5', ', "note": "tab\\tnew\\nline\\u0001"']);
      items.push(rand() < 0.05 ? '"not an item"' : `{"bbox": ${bbox}, ${charField}${extra}}`);
    }
    const path = `images/甲骨文/o_${i}.png`;
    lines.push(`{"image_path": "${path}", "font_type": "甲骨文", "annotation": "x", "width": 1000, "height": 1000, "spotting": [${items.join(', ')}]}`);
  }
  return lines;
}

describe.skipIf(!HAS_PYTHON)('the recomputed target equals CPython running the official logic', () => {
  it('on 400 random GT lines: sample key, and the picked index, char and box for seeds 42 and 7', () => {
    const lines = randomLines(400);
    const dir = mkdtempSync(join(tmpdir(), 'chron-py-'));
    writeFileSync(join(dir, 'gt.jsonl'), lines.join('\n') + '\n');
    writeFileSync(join(dir, 'pick.py'), PY);
    const out = execFileSync('python3', [join(dir, 'pick.py'), join(dir, 'gt.jsonl')], { encoding: 'utf8' }).trim().split('\n');
    expect(out).toHaveLength(lines.length);
    let picked = 0;
    lines.forEach((text, i) => {
      const raw = JSON.parse(text) as Record<string, unknown>;
      const [key, p42, p7] = JSON.parse(out[i]) as [string, [number, string, number[], string] | null, [number, string, number[], string] | null];
      expect(sampleKey(raw, text), `line ${i}`).toBe(key);
      const row = parseGtRow(raw, i + 1, raw.image_path as string, () => {}, text);
      for (const [seed, py] of [[42, p42], [7, p7]] as const) {
        if (py === null) {
          expect(row.referring, `line ${i}`).toBeNull();
          continue;
        }
        const t = pickTarget(row.referring!, seed);
        expect([t.index, t.char, t.bbox, t.sample_key], `line ${i} seed ${seed}`).toEqual(py);
        picked++;
      }
    });
    // Most lines have a candidate: the comparison is not vacuous.
    expect(picked).toBeGreaterThan(500);
  });
});
