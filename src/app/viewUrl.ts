/**
 * The rest of a shareable view in the URL hash, next to the case list's keys (urlState.ts):
 *   ds        the folder the view was made on (its name; a demo says `demo=` instead)
 *   pf        a loaded model (prediction set), repeated — what the view needs added
 *   p         the protocol; `po.<key>` each of its options (`po.iou=0.5`)
 * parse / serialise are pure; bindViewHash writes them from the app store (reading happens where
 * they are used: the protocol when a dataset opens, the needs on a page without them).
 */
import type { OptionValue, Protocol, ProtocolSpec } from '../core';

export interface ViewNeeds {
  dataset: string | null;
  models: string[];
  protocol: { name: string; options: Record<string, string> } | null;
}

const params = (hash: string) => new URLSearchParams(hash.replace(/^#/, ''));

export function parseViewHash(hash: string): ViewNeeds {
  const p = params(hash);
  const options: Record<string, string> = {};
  for (const [k, v] of p) if (k.startsWith('po.') && k.length > 3) options[k.slice(3)] = v;
  const name = p.get('p');
  return { dataset: p.get('ds') || null, models: [...new Set(p.getAll('pf').filter(Boolean))], protocol: name ? { name, options } : null };
}

/** Writes ds / pf / p / po.* into `previousHash`, every other key kept in its place. */
export function serialiseViewHash(v: { dataset: string | null; models: readonly string[]; protocol: Protocol | null }, previousHash: string): string {
  const out = new URLSearchParams();
  for (const [k, val] of params(previousHash)) if (k !== 'ds' && k !== 'pf' && k !== 'p' && !k.startsWith('po.')) out.append(k, val);
  if (v.dataset) out.set('ds', v.dataset);
  for (const m of v.models) out.append('pf', m);
  if (v.protocol) {
    out.set('p', v.protocol.name);
    for (const k of Object.keys(v.protocol.options).sort()) out.set(`po.${k}`, String(v.protocol.options[k]));
  }
  return out.toString();
}

/**
 * The protocol a link asks for, if this dataset offers it: options typed by their spec, unknown
 * or malformed ones left at the default (a link never makes the scorer see a bad value).
 */
export function protocolFromLink(wanted: ViewNeeds['protocol'], specs: readonly ProtocolSpec[]): Protocol | null {
  if (!wanted) return null;
  const spec = specs.find((s) => s.name === wanted.name);
  if (!spec) return null;
  const options: Record<string, OptionValue> = {};
  for (const o of spec.options) {
    if (o.default !== null) options[o.key] = o.default;
    const raw = wanted.options[o.key];
    if (raw === undefined) continue;
    let v: OptionValue | undefined;
    if (o.kind === 'number') v = raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
    else if (o.kind === 'boolean') v = raw === 'true' ? true : raw === 'false' ? false : undefined;
    else if (o.kind === 'enum') v = o.choices?.find((c) => String(c) === raw);
    else v = raw;
    if (v !== undefined) options[o.key] = v;
  }
  return { name: spec.name, options };
}

interface ViewSource {
  dataset: { label: string; demo: boolean } | null;
  models: string[];
  protocol: Protocol | null;
  /** A linked view still waiting for models: its `pf` stay in the URL meanwhile. */
  linkWanted: { needModels?: string[] } | null;
}

/** Keeps ds / pf / p / po.* in the hash in step with the store (replaceState, no history entries). */
export function bindViewHash(store: { getState(): ViewSource; subscribe(fn: (s: ViewSource, prev: ViewSource) => void): () => void }): () => void {
  const write = (s: ViewSource) => {
    // Nothing open yet: the link's own needs stay in the URL until they are met.
    if (!s.dataset) return;
    // A demo brings its own models (`demo=` reopens them): only a folder's view needs files named.
    const models = s.dataset.demo ? [] : [...s.models, ...(s.linkWanted?.needModels ?? []).filter((m) => !s.models.includes(m))];
    const next = serialiseViewHash({ dataset: s.dataset.demo ? null : s.dataset.label, models, protocol: s.protocol }, location.hash);
    if (next !== location.hash.replace(/^#/, '')) history.replaceState(null, '', `#${next}`);
  };
  let pending = false;
  return store.subscribe((s, prev) => {
    if (s.dataset === prev.dataset && s.models === prev.models && s.protocol === prev.protocol && s.linkWanted === prev.linkWanted) return;
    if (pending) return;
    pending = true;
    setTimeout(() => {
      pending = false;
      write(store.getState());
    }, 0);
  });
}
