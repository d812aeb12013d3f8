/**
 * The viewer's keyboard map, as data: the help overlay lists it and useViewerKeys dispatches it,
 * so the two can never disagree.
 */
export type ViewerAction =
  | 'nextCase'
  | 'prevCase'
  | 'nextError'
  | 'prevError'
  | 'toggleGt'
  | 'togglePred'
  | 'toggleDontcare'
  | 'toggleLabels'
  | 'toggleOverlayImage'
  | 'fit'
  | 'actualSize'
  | 'zoomIn'
  | 'zoomOut'
  | 'toggleEditGt'
  | 'help'
  | 'close';

export interface KeyBinding {
  keys: string[];
  action: ViewerAction;
  help: string;
}

export const KEY_BINDINGS: readonly KeyBinding[] = [
  { keys: ['ArrowRight', 'j'], action: 'nextCase', help: 'next case' },
  { keys: ['ArrowLeft', 'k'], action: 'prevCase', help: 'previous case' },
  { keys: ['e', ']'], action: 'nextError', help: 'next error (FN / FP) in this case' },
  { keys: ['E', '['], action: 'prevError', help: 'previous error in this case' },
  { keys: ['g'], action: 'toggleGt', help: 'show / hide ground truth' },
  { keys: ['p'], action: 'togglePred', help: 'show / hide predictions' },
  { keys: ['d'], action: 'toggleDontcare', help: "show / hide don't-care regions" },
  { keys: ['l'], action: 'toggleLabels', help: 'show / hide labels' },
  { keys: ['o'], action: 'toggleOverlayImage', help: "the dataset's overlay image (when there is one)" },
  { keys: ['f'], action: 'fit', help: 'fit the image' },
  { keys: ['1'], action: 'actualSize', help: 'actual size (1:1)' },
  { keys: ['+', '='], action: 'zoomIn', help: 'zoom in' },
  { keys: ['-'], action: 'zoomOut', help: 'zoom out' },
  { keys: ['c'], action: 'toggleEditGt', help: 'correct the ground truth (GT editor on / off; when the page offers it)' },
  { keys: ['?'], action: 'help', help: 'this help' },
  { keys: ['Escape'], action: 'close', help: 'close help / clear selection' },
];

const BY_KEY = new Map<string, ViewerAction>();
for (const b of KEY_BINDINGS) for (const k of b.keys) BY_KEY.set(k, b.action);

export interface KeyLike {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** The action of a key press, or null (modified keys belong to the browser). */
export function actionFor(e: KeyLike): ViewerAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  // Shift+digit belongs to the review keys (some layouts report the digit itself as the key).
  if (e.shiftKey && /^[0-9]$/.test(e.key)) return null;
  return BY_KEY.get(e.key) ?? null;
}

/** True when the key press is typing into a field and must not drive the viewer. */
export function isTypingTarget(t: { tagName?: string; isContentEditable?: boolean; type?: string } | null): boolean {
  if (!t) return false;
  if (t.isContentEditable) return true;
  const tag = (t.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !['checkbox', 'radio', 'button', 'range', 'submit', 'reset'].includes((t.type ?? 'text').toLowerCase());
  return false;
}
