import { ensureCliBundle } from '../scripts/cliBundle.mjs';
import { HAS_SHARED, SHARED_DIR } from './shared';

/** The CLI tests run the compiled bundle: (re)build it once here when its sources changed. */
export default async function setup() {
  await ensureCliBundle({ quiet: false });
  if (!HAS_SHARED) {
    console.warn(
      `\n!!! SKIPPED: golden and shared-data suites (LTB, Chronicles-OCR, TABench, gansulishuzhi, PulseBench-Select references; CLI reference runs) — ${SHARED_DIR} not found. CI always has ../shared beside the checkout.\n`,
    );
  }
}
