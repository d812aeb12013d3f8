/**
 * case_analysis.jsonl as a Blob, written one line at a time. With a 1 GB prediction file the
 * export is several GB: far past the ~512 MiB a JS string can hold, so no string of the whole
 * file ever exists. Lines are gathered into parts of a few MiB and each part becomes a Blob at
 * once (the browser may keep Blob bytes outside the JS heap, even on disk); the file is the Blob
 * of those Blobs, which is cheap to post to the page and to download.
 *
 * Reviews are merged here too, so the page never parses the lines: it posts the `qa` of each
 * reviewed (model, case) and of each corrected case (see qaKey), and this writes it as the
 * line's last field, exactly as JSON.stringify of the line with `qa` set last.
 */
import { caseLine, serializeCaseLine } from '../core/caseExport';
import type { BenchmarkId, CaseRecord } from '../core/model';
import { qaKey, type QaByKey } from '../core/qa';

export const CASE_ANALYSIS_TYPE = 'application/x-ndjson';

/** Bytes gathered before they become one Blob part (a few MiB: few parts, one reused buffer). */
const PART_BYTES = 4 << 20;

export interface ModelCases {
  model: string;
  cases: readonly CaseRecord[];
}

/**
 * Lines are UTF-8-encoded into one reused buffer and each full buffer is copied into a Blob part
 * (the Blob constructor copies): in Chromium this was ~40% faster than Blobs of the line strings
 * and keeps the JS heap flat however large the file.
 */
export function caseAnalysisBlob(benchmark: BenchmarkId, results: readonly ModelCases[], qaByKey: QaByKey = new Map(), partBytes = PART_BYTES): Blob {
  const encoder = new TextEncoder();
  const buf = new Uint8Array(partBytes);
  const parts: Blob[] = [];
  let at = 0;
  for (const r of results) {
    for (const c of r.cases) {
      const qa = qaByKey.get(qaKey(r.model, c.case_id)) ?? qaByKey.get(c.case_id);
      const line = serializeCaseLine(caseLine(benchmark, r.model, c, qa)) + '\n';
      // A UTF-16 code unit is at most 3 bytes of UTF-8: flush unless the line surely fits.
      const most = line.length * 3;
      if (at + most > buf.length && at > 0) {
        parts.push(new Blob([buf.subarray(0, at)]));
        at = 0;
      }
      if (most > buf.length) parts.push(new Blob([encoder.encode(line)]));
      else at += encoder.encodeInto(line, buf.subarray(at)).written;
    }
  }
  if (at > 0) parts.push(new Blob([buf.subarray(0, at)]));
  return new Blob(parts, { type: CASE_ANALYSIS_TYPE });
}
