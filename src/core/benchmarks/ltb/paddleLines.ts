/**
 * PaddleOCR's text files: one line per image, `<image>\t<JSON>`.
 *  - `tools/infer_det.py` (Global.save_res_path, e.g. `predicts_db.txt`): the image path as given
 *    (often absolute), then `json.dumps([{"transcription": "", "points": [[x, y], …]}, …])`;
 *  - `tools/infer/predict_system.py` (`<draw_img_save_dir>/system_results.txt`): the image's
 *    base name, then `[{"transcription": text, "points": [[x, y], …]}]` (int32 points);
 *  - `tools/infer/predict_det.py` (`det_results.txt`) and MindOCR's `det_results.txt`: a JSON
 *    list of point lists `[[[x, y], …], …]`; MindOCR with include_score adds a third
 *    tab-separated column, the JSON list of scores.
 * None of PaddleOCR's own writers stores a detection confidence, so a box without a `score`
 * scores 1.0 (as an ICDAR line without one); the reader says so.
 * The image is joined by its base name (then stem), so absolute and Windows paths join too.
 */

export interface PaddleBox {
  points: unknown;
  /** undefined: the file carries no confidence for it. */
  score: unknown;
}

export interface PaddleLine {
  image: string;
  boxes: PaddleBox[];
}

/** `<image>\t[` at the start of a line: the shape of all three writers. */
export const PADDLE_LINE = /^[^\t{[]+\t\s*\[/;

/** One line, or why it cannot be read. */
export function parsePaddleLine(line: string): PaddleLine | string {
  const tab = line.indexOf('\t');
  if (tab <= 0) return 'no tab between the image and its boxes (expected <image>\\t<JSON list>)';
  const image = line.slice(0, tab).trim();
  const rest = line.slice(tab + 1);
  const tab2 = rest.indexOf('\t');
  let list: unknown;
  let scores: unknown;
  try {
    list = JSON.parse(tab2 < 0 ? rest : rest.slice(0, tab2));
    if (tab2 >= 0) scores = JSON.parse(rest.slice(tab2 + 1));
  } catch {
    return 'the boxes after the tab are not valid JSON';
  }
  if (!Array.isArray(list)) return 'the boxes after the tab are not a JSON list';
  if (scores !== undefined && !(Array.isArray(scores) && scores.length === list.length)) {
    return `the third column is not a list of ${list.length} scores`;
  }
  const boxes = list.map((b, k): PaddleBox => {
    const sc = Array.isArray(scores) ? scores[k] : undefined;
    if (b !== null && typeof b === 'object' && !Array.isArray(b)) {
      const o = b as Record<string, unknown>;
      return { points: o.points, score: o.score ?? sc };
    }
    return { points: b, score: sc };
  });
  return { image, boxes };
}
