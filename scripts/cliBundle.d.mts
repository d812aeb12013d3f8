// Types for scripts/cliBundle.mjs (plain JavaScript: it runs before anything is compiled).
export const ROOT: string;
export const CLI_DIR: string;
export const CLI_BUNDLE: string;
export function staleReason(): string | null;
export function buildCliBundle(options?: { quiet?: boolean }): Promise<{ bundle: string; modules: string[] }>;
export function ensureCliBundle(options?: { quiet?: boolean }): Promise<string>;
