import { HAS_SHARED, SHARED_DIR } from './shared';

export default function setup() {
  if (!HAS_SHARED) {
    console.warn(
      `\n!!! SKIPPED: golden and shared-data suites (LTB, Chronicles-OCR, TABench, gansulishuzhi, PulseBench-Select references; CLI reference runs) — ${SHARED_DIR} not found. CI always has ../shared beside the checkout.\n`,
    );
  }
}
