/**
 * The `uncertainty` block of report.json (shared/specs/uncertainty.md) as the page reads it. The
 * worker computes it with the core engine (src/core/uncertainty) after the report; the page only
 * looks numbers up in it, never recomputes one.
 */
export type { UncertaintyBlock as UncertaintyBlockView, UncertaintyPair } from '../../../core';
