/**
 * The normal form of a stored review (pure: no Dexie), shared by the repository and by the
 * import/export code so both agree on what "the same review" is.
 */
import type { InstanceReview } from '../core/qa';
import type { ReviewRow } from './schema';

function cleanTags(tags: readonly string[] | undefined): string[] | undefined {
  if (!tags) return undefined;
  const out: string[] = [];
  for (const t of tags) {
    const s = t.trim();
    if (s && !out.includes(s)) out.push(s);
  }
  return out.length ? out : undefined;
}

function cleanInstance(r: InstanceReview): InstanceReview | null {
  const out: InstanceReview = { side: r.side, id: r.id, status: r.status };
  if (r.note) out.note = r.note;
  const tags = cleanTags(r.tags);
  if (tags) out.tags = tags;
  return out.status === 'unreviewed' && !out.note && !out.tags ? null : out;
}

/** Drops empty fields; null when the review says nothing at all. Key order is fixed. */
export function normalizeReview(r: ReviewRow): ReviewRow | null {
  const out: ReviewRow = { fingerprint: r.fingerprint, model: r.model, case_id: r.case_id, status: r.status, updated_at: r.updated_at };
  if (r.note) out.note = r.note;
  const tags = cleanTags(r.tags);
  if (tags) out.tags = tags;
  const inst = (r.instances ?? [])
    .map(cleanInstance)
    .filter((x): x is InstanceReview => x !== null)
    .sort((a, b) => (a.side === b.side ? a.id - b.id : a.side === 'gt' ? -1 : 1));
  if (inst.length) out.instances = inst;
  if (r.author) out.author = r.author;
  if (out.status === 'unreviewed' && !out.note && !out.tags && !out.instances) return null;
  return out;
}

