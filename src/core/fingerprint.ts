/**
 * A stable dataset fingerprint: the same benchmark opened from another folder, or from another
 * copy, gets the same key, so stored reviews find their cases again. Built from what identifies
 * the cases (ids and GT content), never from a folder path.
 */

/** 64-bit FNV-1a over UTF-16 code units, as two 32-bit halves, printed as 16 hex digits. */
function fnv1a64(parts: Iterable<string>): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (const s of parts) {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h1 >>> 13);
    }
    h1 = Math.imul(h1 ^ 0x1f, 0x01000193); // separator, so ["ab","c"] ≠ ["a","bc"]
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/**
 * `benchmark:count:hash` over the sorted case keys (e.g. image names, query ids) and any GT
 * content strings the adapter adds.
 */
export function datasetFingerprint(benchmark: string, caseKeys: Iterable<string>): string {
  const keys = [...caseKeys].sort();
  return `${benchmark}:${keys.length}:${fnv1a64(keys)}`;
}
