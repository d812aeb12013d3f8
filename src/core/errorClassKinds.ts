/**
 * The error classes of shared/specs/errors.md as the case list names them. The case table puts
 * them among each model's error kinds ("FN split", "FP background"), so the case list's
 * per-model error facet is the "error class" facet and a class bar of the report filters on it.
 */
export { ERROR_CLASSES } from './model';

export type ErrorSide = 'fn' | 'fp';

/** The case table's error kind for a class on one side. */
export function errorClassKind(side: ErrorSide, cls: string): string {
  return `${side === 'fn' ? 'FN' : 'FP'} ${cls}`;
}

/** The kinds a class bar filters on: its FNs and its FPs (a name used on both sides counts both). */
export function errorClassKinds(cls: string): string[] {
  return [errorClassKind('fn', cls), errorClassKind('fp', cls)];
}

/** The class of a case-table error kind, or null when the kind is not an error class. */
export function parseErrorClassKind(kind: string): { side: ErrorSide; cls: string } | null {
  const m = /^(FN|FP) (\w+)$/.exec(kind);
  return m ? { side: m[1] === 'FN' ? 'fn' : 'fp', cls: m[2] } : null;
}
