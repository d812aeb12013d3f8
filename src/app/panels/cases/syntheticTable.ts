/**
 * A deterministic, generated CaseTable of any size: the test fixture, the bench input and the
 * harness page's data. Nothing here comes from a real benchmark.
 */
import type { CaseTable, FacetColumn, ModelColumns, OutcomeCode } from '../../../core/caseTable';
import { mulberry32 } from '../../../core/random';


/** Builds a CSR facet column from one list of values per case. */
export function facetColumn(key: string, perCase: readonly (readonly string[])[]): FacetColumn {
  const values = [...new Set(perCase.flat())].sort();
  const code = new Map(values.map((v, i) => [v, i]));
  const offsets = new Uint32Array(perCase.length + 1);
  let n = 0;
  for (let i = 0; i < perCase.length; i++) {
    offsets[i] = n;
    n += new Set(perCase[i]).size;
  }
  offsets[perCase.length] = n;
  const codes = new Uint32Array(n);
  for (let i = 0; i < perCase.length; i++) {
    let j = offsets[i];
    for (const v of new Set(perCase[i])) codes[j++] = code.get(v)!;
  }
  return { key, values, offsets, codes };
}

const CHALLENGES = ['artistic', 'blurred', 'complex_bg', 'dense', 'occluded', 'low_contrast', 'inverse', 'glass'];
const TASKS = ['spotting', 'recognition', 'parsing', 'classification'];
const SCRIPTS = ['oracle_bone', 'bronze', 'seal', 'clerical', 'regular', 'running', 'cursive'];
const ERROR_KINDS = ['no_extract', 'no_infer', 'unparseable_output'];
const WORDS = ['exit', 'stage', 'harbour', 'caution', 'reserve', 'carpark', 'theatre', 'citi', 'fusion', 'pay'];

export interface SyntheticOptions {
  cases: number;
  models?: string[];
  seed?: number;
  /** Fraction of cases whose image is missing. */
  missingImages?: number;
}

/** `cases` cases with task / script / challenge facets and correlated per-model results. */
export function syntheticCaseTable({ cases, models = ['model-a', 'model-b', 'model-c'], seed = 1, missingImages = 0.02 }: SyntheticOptions): CaseTable {
  const rnd = mulberry32(seed);
  const caseIds: string[] = [];
  const imagePaths: (string | null)[] = [];
  const imageFiles: (string | null)[] = [];
  const searchText: string[] = [];
  const task: string[][] = [];
  const script: string[][] = [];
  const challenge: string[][] = [];
  const difficulty = new Float64Array(cases);
  for (let i = 0; i < cases; i++) {
    const path = `images/${SCRIPTS[i % SCRIPTS.length]}/img_${i + 1}.jpg`;
    caseIds.push(`img_${i + 1}.jpg`);
    imagePaths.push(path);
    imageFiles.push(rnd() < missingImages ? null : path);
    task.push([TASKS[Math.floor(rnd() * TASKS.length)]]);
    script.push([SCRIPTS[i % SCRIPTS.length]]);
    const ch: string[] = [];
    const k = Math.floor(rnd() * 3); // 0..2 challenges
    for (let j = 0; j < k; j++) ch.push(CHALLENGES[Math.floor(rnd() * CHALLENGES.length)]);
    challenge.push(ch);
    searchText.push(`${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`);
    difficulty[i] = rnd();
  }
  const perModel: Record<string, ModelColumns> = {};
  models.forEach((m, mi) => {
    const score = new Float64Array(cases);
    const outcome = new Uint8Array(cases);
    const misses = new Uint32Array(cases);
    const falsePositives = new Uint32Array(cases);
    const errorMask = new Uint32Array(cases);
    const skill = 0.75 - mi * 0.12;
    for (let i = 0; i < cases; i++) {
      const r = rnd();
      if (r < 0.01) {
        score[i] = NaN;
        outcome[i] = (mi === models.length - 1 && i % 50 === 0 ? 4 : 3) as OutcomeCode;
        continue;
      }
      const s = Math.min(1, Math.max(0, skill + (rnd() - 0.5) * 1.3 - (difficulty[i] - 0.5) * 0.6));
      const q = s > 0.92 ? 1 : s < 0.08 ? 0 : Math.round(s * 100) / 100;
      score[i] = q;
      outcome[i] = q === 1 ? 0 : q === 0 ? 2 : 1;
      misses[i] = q === 1 ? 0 : Math.floor(rnd() * 6) + (q === 0 ? 1 : 0);
      falsePositives[i] = q === 1 ? 0 : Math.floor(rnd() * 4);
      if (q === 0 && rnd() < 0.5) errorMask[i] = 1 << Math.floor(rnd() * ERROR_KINDS.length);
    }
    perModel[m] = { score, outcome, misses, falsePositives, errorKinds: [...ERROR_KINDS], errorMask };
  });
  return {
    caseIds,
    imagePaths,
    imageFiles,
    facets: [facetColumn('task', task), facetColumn('script', script), facetColumn('challenge', challenge)],
    models: [...models],
    perModel,
    searchText,
  };
}
