/**
 * Text checks shared by every benchmark whose GT has text: `empty_text` and `text_suspicious`.
 *
 * "Characters no installed font covers" cannot be known outside a page (Node has no fonts, and a
 * worker cannot measure glyphs); what can be known everywhere is the set of code points that NO
 * font can be expected to draw: unassigned code points (`\p{Cn}`, per the Unicode version of the
 * JS engine), private-use code points (`\p{Co}`: only a private font draws them, as tofu
 * elsewhere) and lone surrogates. Those are reported with U+FFFD and control characters.
 */

/** Empty or only white space (JS `\s`, which includes U+3000 ideographic space). */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}

const SUSPICIOUS = /[\uFFFD\p{Cc}\p{Co}\p{Cn}\p{Cs}]/gu;

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function what(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp === 0xfffd) return 'U+FFFD replacement character (the text was mis-decoded somewhere)';
  if (/\p{Cc}/u.test(ch)) return `control character ${codePoint(ch)}`;
  if (/\p{Co}/u.test(ch)) return `private-use ${codePoint(ch)} (no standard font draws it: tofu)`;
  if (/\p{Cs}/u.test(ch)) return `lone surrogate ${codePoint(ch)} (broken UTF-16)`;
  return `unassigned code point ${codePoint(ch)} (no font draws it: tofu)`;
}

/**
 * Why a GT text looks broken, or null. Names the first kinds of bad character found and where
 * ("3 suspicious characters: U+FFFD … at 2, …"), never the whole text (it may be huge).
 */
export function suspiciousText(text: string): string | null {
  SUSPICIOUS.lastIndex = 0;
  const hits: { at: number; ch: string }[] = [];
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = SUSPICIOUS.exec(text)) !== null) {
    n++;
    if (hits.length < 3) hits.push({ at: [...text.slice(0, m.index)].length, ch: m[0] });
  }
  if (n === 0) return null;
  const parts = hits.map((h) => `${what(h.ch)} at character ${h.at + 1}`);
  return `${n} suspicious character${n === 1 ? '' : 's'} in ${quote(text)}: ${parts.join('; ')}${n > hits.length ? '; …' : ''}`;
}

/** A text for a message: JSON-quoted (control characters visible as escapes), cut at 40 characters. */
export function quote(text: string): string {
  const cps = [...text];
  return JSON.stringify(cps.length > 40 ? cps.slice(0, 39).join('') + '…' : text);
}
