/**
 * Dataset strings are shown bidi-isolated (`<bdi>`, or `unicode-bidi: isolate` in styles.css), so
 * a U+202E (right-to-left override) in a file name or a GT line reverses that string only, never
 * the page text around it. A warning is one sentence mixing our words with dataset text, so the
 * dataset part cannot be isolated alone: there the controls are shown as visible code points.
 */

/** The Unicode bidi formatting characters: LRE RLE PDF LRO RLO, LRI RLI FSI PDI, LRM RLM ALM. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** `s` with each bidi control replaced by a visible "⟨U+202E⟩". */
export function showBidiControls(s: string): string {
  return s.replace(BIDI_CONTROLS, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
