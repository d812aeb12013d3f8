/**
 * R2T string normalisation (tabench.md "Metrics"): Unicode NFKC, then the punctuation NFKC leaves
 * alone mapped to ASCII, then every run of Unicode white space folded to one space and trimmed.
 * Case is kept unless `r2t_casefold` is on (JavaScript toLowerCase).
 */

export type R2tNorm = 'nfkc-ws-punct' | 'nfkc-ws' | 'none';

// Only characters NFKC does not already fold: full-width ASCII (（ ： ￥ …) is handled by NFKC,
// and NFKC turns ″ into ′′ and … into ..., so ′ must be here.
const PUNCT: Record<string, string> = {
  '“': '"',
  '”': '"',
  '„': '"',
  '‟': '"',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '′': "'",
  '。': '.',
  '、': ',',
  '「': '"',
  '」': '"',
  '『': '"',
  '』': '"',
  '【': '[',
  '】': ']',
  '《': '<',
  '》': '>',
  '—': '-',
  '–': '-',
};
const PUNCT_RE = new RegExp(`[${Object.keys(PUNCT).join('')}]`, 'gu');
const WHITE_RUN = /\p{White_Space}+/gu;

export function mapPunctuation(s: string): string {
  return s.replace(PUNCT_RE, (c) => PUNCT[c]);
}

export function foldWhiteSpace(s: string): string {
  return s.replace(WHITE_RUN, ' ').trim();
}

export function normalizeR2t(s: string, norm: R2tNorm = 'nfkc-ws-punct', casefold = false): string {
  let out = s;
  if (norm !== 'none') {
    out = out.normalize('NFKC');
    if (norm === 'nfkc-ws-punct') out = mapPunctuation(out);
    out = foldWhiteSpace(out);
  }
  return casefold ? out.toLowerCase() : out;
}
