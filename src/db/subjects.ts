/**
 * What a stored review is about (ReviewRow.subject). GT reviews belong to the dataset; reviews of
 * predictions belong to the prediction set's content (fingerprintingSource in src/core), never
 * to its name; 'name:' keys only hold version-1 reviews not yet matched to a file's content.
 */
export const GT_SUBJECT = 'gt';

export function predSubject(content: string): string {
  return `pred:${content}`;
}

export function legacySubject(model: string): string {
  return `name:${model}`;
}

export function isPredSubject(subject: string): boolean {
  return subject.startsWith('pred:');
}

/** The content fingerprint of a 'pred:' subject (null for others). */
export function contentOf(subject: string): string | null {
  return isPredSubject(subject) ? subject.slice(5) : null;
}

/** A unique write token for ReviewRow.rev. */
export function newRev(): string {
  return globalThis.crypto?.randomUUID?.() ?? `r-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
