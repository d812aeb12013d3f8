import { ensureCliBundle } from '../scripts/cliBundle.mjs';
import { HAS_SHARED, SHARED_DIR } from '../test/shared';

/**
 * The compiled CLI (viewer-reference compares against its case lines), built when stale; one
 * loud line when the browser suites that open ../shared folders cannot run.
 */
export default async function globalSetup() {
  await ensureCliBundle({ quiet: false });
  if (!HAS_SHARED) {
    console.warn(
      `\n!!! SKIPPED browser suites on real folders (open: drop/input/picker of ltb-mini; report: reference numbers, exports; cases: ltb-mini and chronicles-mini counts) — ${SHARED_DIR} not found. CI always has ../shared beside the checkout.\n`,
    );
  }
}
