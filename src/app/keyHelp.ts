/**
 * Every key the app answers, as data, for the keyboard help (the viewer's "?" overlay) and for the
 * handlers that use them: the workspace's own keys here (TAB_KEYS, SUSPECT_KEY), the viewer's from
 * canvas/keys.ts, the review keys from qa/reviewKeys.ts. Issue #42 item 12: the help listed the
 * viewer's keys only, so Shift+1…6, n, w, r and s were nowhere on screen.
 */
import { KEY_BINDINGS } from './canvas/keys';
import { REVIEW_KEY_HELP } from './qa/reviewKeys';

export interface KeyHelpRow {
  keys: string[];
  help: string;
}

export interface KeyHelpSection {
  title: string;
  rows: KeyHelpRow[];
}

/** The tabs' keys (App.tsx Tabs). */
export const TAB_KEYS = { w: 'workspace', r: 'report' } as const;

/** The key that walks the report's GT suspects (panels/cases/SuspectQueue.tsx). */
export const SUSPECT_KEY = 's';

/** How a key is shown: the browser's key names made readable. */
export function keyLabel(k: string): string {
  return k === ' ' ? 'Space' : k === 'ArrowRight' ? '→' : k === 'ArrowLeft' ? '←' : k === 'Escape' ? 'Esc' : k;
}

export const VIEWER_KEY_HELP: KeyHelpSection = { title: 'Viewer', rows: KEY_BINDINGS.map((b) => ({ keys: b.keys, help: b.help })) };

/** The sections the app's help lists (the viewer's alone in pages without the app, like the harness). */
export const APP_KEY_HELP: readonly KeyHelpSection[] = [
  {
    title: 'Workspace',
    rows: [
      { keys: ['w'], help: 'the workspace (case list, image, details)' },
      { keys: ['r'], help: 'the report' },
      { keys: [SUSPECT_KEY], help: 'next GT suspect (the report’s possible missing / wrong GT), when there are any' },
      { keys: ['j', 'k', 'Enter'], help: 'in the focused case list: next, previous, open' },
    ],
  },
  VIEWER_KEY_HELP,
  { title: 'Review', rows: REVIEW_KEY_HELP.map((r) => ({ keys: [r.keys], help: r.help })) },
];
