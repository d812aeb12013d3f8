/**
 * A protocol without the uncertainty options (ci, ci_*), which every protocol now carries
 * (shared/specs/uncertainty.md): the reference reports predate them and name only the options
 * that change a metric.
 */
import type { Protocol } from '../src/core/model';
import { UNCERTAINTY_OPTION_SPECS } from '../src/core/uncertainty/options';

const CI_KEYS = new Set(UNCERTAINTY_OPTION_SPECS.map((o) => o.key));

export function withoutCi(p: Protocol): Protocol {
  return { name: p.name, options: Object.fromEntries(Object.entries(p.options).filter(([k]) => !CI_KEYS.has(k))) };
}
