// Types for scripts/cliBundle.mjs (plain JavaScript: it runs before anything is compiled).
export const ROOT: string;
export const CLI_DIR: string;
export const CLI_BUNDLE: string;
export function staleReason(paths?: { bundle?: string; inputList?: string; root?: string }): string | null;
export function inputRecords(absPaths: string[], root: string): { path: string; size: number; mtimeMs: number; sha1: string }[];
export function buildCliBundle(options?: { quiet?: boolean }): Promise<{ bundle: string; modules: string[] }>;
export function ensureCliBundle(options?: { quiet?: boolean }): Promise<string>;
