/**
 * `npm run cli -- …`: runs the compiled CLI (dist-cli/benchlens.mjs), building it first when it
 * is missing or any of its inputs changed since (scripts/cliBundle.mjs decides), so the command
 * never runs a stale build. Build progress goes to stderr; stdout, exit codes and files are the
 * CLI's own.
 */
import { pathToFileURL } from 'node:url';
import { ensureCliBundle } from '../scripts/cliBundle.mjs';

const bundle = await ensureCliBundle({ quiet: false });
await import(pathToFileURL(bundle).href);
