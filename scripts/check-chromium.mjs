// Browser tests never skip silently: without Chromium, say how to get it and fail.
import { existsSync } from 'node:fs';
const p = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean).find((x) => existsSync(x));
if (!p) {
  console.error('benchlens: no Chromium found for the browser tests — install it with `apt-get install -y chromium` (or set CHROMIUM_PATH).');
  process.exit(1);
}
