/**
 * What happens once when the page starts: find which demos this build has, bind the case list
 * to the URL hash, and honour `#demo=<benchmark>` (what `npm start` opens).
 */
import { useEffect } from 'react';
import type { BenchmarkId } from '../core';
import { isBenchmarkId } from './benchmarks';
import { loadDemos, openDemo } from './store/actions';
import { useBench } from './store';
import { bindCasesHash, parseCasesHash } from './urlState';
import { bindViewHash } from './viewUrl';
import { forgetLinkNeeds, initialLinkNeeds } from './panels/LinkNeeds';

export function demoFromHash(hash: string): BenchmarkId | null {
  const id = new URLSearchParams(hash.replace(/^#/, '')).get('demo');
  return isBenchmarkId(id) ? id : null;
}

/** Keeps `demo=` in the hash in step with what is open, leaving every other key in place. */
function writeDemoToHash(id: string | null): void {
  const p = new URLSearchParams(location.hash.replace(/^#/, ''));
  if ((p.get('demo') ?? null) === id) return;
  if (id) p.set('demo', id);
  else p.delete('demo');
  const s = p.toString();
  history.replaceState(null, '', s ? `#${s}` : location.pathname + location.search);
}

/**
 * After Close the page is as if just loaded without a link: the hash loses the closed view (its
 * folder, models, protocol, filters, demo), so neither the next folder opened nor a reload is
 * taken for that view — no "this link shows a view of …" banner, no offer to reopen the folder.
 */
function startAfresh(): void {
  forgetLinkNeeds();
  useBench.getState().restoreCasesUrl(parseCasesHash(''));
  useBench.setState({ linkWanted: null });
  history.replaceState(null, '', location.pathname + location.search);
}

let started = false;

export function useStartup(): void {
  useEffect(() => {
    void loadDemos();
    initialLinkNeeds(); // read the link's needs before anything rewrites the hash
    const unbind = bindCasesHash(useBench);
    const unbindView = bindViewHash(useBench);
    const unsub = useBench.subscribe((s, prev) => {
      if (s.dataset !== prev.dataset && s.dataset) writeDemoToHash(s.dataset.demo ? s.dataset.benchmark : null);
      if (prev.dataset && !s.dataset) startAfresh();
    });
    // StrictMode runs effects twice in development: open the demo only once.
    if (!started) {
      started = true;
      const demo = demoFromHash(location.hash);
      if (demo) void openDemo(demo);
    }
    const onHash = () => {
      const demo = demoFromHash(location.hash);
      const ds = useBench.getState().dataset;
      if (demo && (!ds || !ds.demo || ds.benchmark !== demo)) void openDemo(demo);
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      unbind();
      unbindView();
      unsub();
      window.removeEventListener('hashchange', onHash);
    };
  }, []);
}
