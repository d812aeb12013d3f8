/**
 * `npm run cli -- …`: runs the compiled CLI (dist-cli/benchlens.mjs), building it first when it
 * is missing or any of its inputs changed since (scripts/cliBundle.mjs decides), so the command
 * never runs a stale build. The build prints nothing: stdout, stderr, exit codes and files are
 * the CLI's own, on the first run too.
 */
import { pathToFileURL } from 'node:url';
import { ensureCliBundle } from '../scripts/cliBundle.mjs';

// Silent: the CLI's stderr is part of its contract (one line on exit 2), even on the first run.
const bundle = await ensureCliBundle({ quiet: true });
await import(pathToFileURL(bundle).href);
