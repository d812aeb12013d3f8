/**
 * How each state is drawn. Colours are Okabe–Ito (safe for the common colour-vision
 * deficiencies) and every error state also has its own dash pattern, so colour is never the only
 * cue. Dashes are in screen pixels (the drawer divides by the zoom).
 */
import type { InstanceState } from '../../core/model';
import type { Role, Side } from './scene';

export interface StateStyle {
  stroke: string;
  /** Fill of the interior (GT only), '' for none. */
  fill: string;
  dash: number[];
  width: number;
  /** Dimmed shapes (ignored, below threshold, unknown) are drawn at this opacity. */
  alpha: number;
  hatch: boolean;
}

export const COLORS = {
  gtMatched: '#009E73', // bluish green
  predMatched: '#0072B2', // blue
  miss: '#E69F00', // orange
  falsePositive: '#D55E00', // vermillion
  dontcare: '#7F7F7F',
  dimmed: '#B0B0B0',
  info: '#F0E442', // yellow
  target: '#FF0000', // the Recognition task's red box, as the model saw it
  optionSelected: '#56B4E9', // sky blue
  highlight: '#FFFFFF',
} as const;

/**
 * Colours for models (Okabe–Ito, in an order that keeps neighbours apart). A model keeps its
 * colour everywhere — legend, list column, overlay — by its position among the loaded models.
 */
export const MODEL_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#F0E442'];

/** The colour of the model at `index` among the loaded ones (colours repeat after seven models). */
export const modelColor = (index: number) => MODEL_COLORS[((index % MODEL_COLORS.length) + MODEL_COLORS.length) % MODEL_COLORS.length];

export const DASH = { solid: [] as number[], miss: [10, 5], fp: [3, 3], dimmed: [2, 4], info: [6, 3, 2, 3] };

export function styleFor(side: Side, state: InstanceState, role: Role = null, selected: boolean | null = null): StateStyle {
  const base: StateStyle = { stroke: COLORS.info, fill: '', dash: DASH.solid, width: 2, alpha: 1, hatch: false };
  if (role === 'target') return { ...base, stroke: COLORS.target, width: 3 };
  if (role === 'query') return { ...base, stroke: COLORS.info, dash: DASH.info, width: 3 };
  switch (state) {
    case 'tp':
      return side === 'gt'
        ? { ...base, stroke: COLORS.gtMatched, fill: 'rgba(0,158,115,0.12)' }
        : { ...base, stroke: COLORS.predMatched };
    case 'fn':
      return { ...base, stroke: COLORS.miss, fill: 'rgba(230,159,0,0.14)', dash: DASH.miss, width: 2.5 };
    case 'fp':
      return { ...base, stroke: COLORS.falsePositive, dash: DASH.fp, width: 2.5 };
    case 'dontcare':
      return { ...base, stroke: COLORS.dontcare, hatch: true, width: 1.5 };
    case 'ignored':
    case 'below_threshold':
    case 'unk':
      return { ...base, stroke: COLORS.dimmed, dash: DASH.dimmed, width: 1.5, alpha: 0.55 };
    case 'info':
    default:
      if (selected === true) return { ...base, stroke: COLORS.optionSelected, width: 2 };
      return { ...base, stroke: COLORS.info, dash: DASH.info, width: 1.5, alpha: selected === false ? 0.7 : 1 };
  }
}

/** The style of a prediction in overlay comparison: the model's colour, the state's dash. */
export function overlayStyle(side: Side, state: InstanceState, view: number, role: Role, selected: boolean | null, colors?: readonly string[]): StateStyle {
  const s = styleFor(side, state, role, selected);
  if (side === 'gt' || role) {
    // The GT is drawn once for all models: neutral, since matched / missed differs per model.
    return side === 'gt' && state !== 'dontcare' && !role ? { ...s, stroke: '#FFFFFF', fill: 'rgba(255,255,255,0.10)', dash: DASH.solid } : s;
  }
  return { ...s, stroke: colors?.[view] ?? modelColor(view), fill: '' };
}

export const STATE_LABEL: Record<InstanceState, string> = {
  tp: 'matched',
  fn: 'missed (FN)',
  fp: 'false positive (FP)',
  dontcare: "don't care",
  ignored: 'ignored',
  below_threshold: 'below threshold',
  unk: 'unknown text',
  info: 'context',
};
