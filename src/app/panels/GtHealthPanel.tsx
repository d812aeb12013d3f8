/**
 * GT health on the page (shared/specs/lint.md): one row per finding kind with its severity and
 * count — a click lists the cases that have it (the case list's `gt_health` facet) and opens the
 * first — the findings of the case on screen in its details panel, and the download of the
 * corrected GT with its changelog. Findings are re-checked on the corrected GT after every GT
 * edit (gtHealthActions.watchGtCorrections), so a fixed one leaves the panel.
 */
import { useEffect, useMemo, useState } from 'react';
import type { CaseRecord } from '../../core';
import { scoringClient, type GtHealth, type GtHealthFinding } from '../../worker/client';
import { correctionsForScoring } from '../qa/corrections';
import { downloadGroundTruth } from '../qa/download';
import { useBench } from '../store';
import { GT_HEALTH_FACET } from '../store/healthFacet';
import { refreshGtHealth, watchGtCorrections } from '../store/gtHealthActions';

const EMPTY: readonly GtHealthFinding[] = [];
const EMPTY_KINDS: string[] = [];

/** Findings per case id (the details panel asks for one case at a time). */
function useFindingsByCase(): Map<string, GtHealthFinding[]> {
  const health = useBench((s) => s.gtHealth);
  return useMemo(() => {
    const out = new Map<string, GtHealthFinding[]>();
    for (const f of health?.findings ?? []) {
      const list = out.get(f.case_id);
      if (list) list.push(f);
      else out.set(f.case_id, [f]);
    }
    return out;
  }, [health]);
}

interface KindRow {
  kind: string;
  severity: string;
  findings: number;
  cases: number;
}

function kindRows(h: GtHealth): KindRow[] {
  const rows = new Map<string, { severity: string; findings: number; cases: Set<string> }>();
  for (const f of h.findings) {
    const r = rows.get(f.kind) ?? { severity: f.severity, findings: 0, cases: new Set<string>() };
    r.findings++;
    r.cases.add(f.case_id);
    rows.set(f.kind, r);
  }
  // Errors first (they cost a score), then by count.
  return [...rows.entries()]
    .map(([kind, r]) => ({ kind, severity: r.severity, findings: r.findings, cases: r.cases.size }))
    .sort((a, b) => (a.severity === b.severity ? b.findings - a.findings || (a.kind < b.kind ? -1 : 1) : a.severity === 'error' ? -1 : 1));
}

/** Where a finding is, as the viewer numbers it. */
export function findingPlace(f: GtHealthFinding): string {
  if (f.added !== undefined) return `added GT ${f.added}`;
  return f.instance === undefined ? 'whole case' : `GT ${f.instance}`;
}

const kindLabel = (k: string) => k.replace(/_/g, ' ');

/** Re-checks the GT health whenever a GT correction of the open dataset is stored. */
export function useGtHealthWatch(): void {
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  useEffect(() => (fingerprint ? watchGtCorrections(fingerprint) : undefined), [fingerprint]);
}

/** Lists the cases with findings of `kind` and opens the first of them on its finding. */
function showKind(kind: string, findings: readonly GtHealthFinding[]): void {
  const s = useBench.getState();
  s.setFacetFilter(GT_HEALTH_FACET, kind);
  s.setWorkspaceTab('workspace');
  const first = findings.find((f) => f.kind === kind);
  if (!first) return;
  s.selectCase(first.case_id);
  s.focusFinding({ caseId: first.case_id, kind, instance: first.instance, added: first.added });
}

export function GtHealthPanel({ where }: { where: 'workspace' | 'report' }) {
  // The view on screen (App's useTab): the copy in the hidden view renders nothing until shown,
  // so a new check's findings render once, not twice.
  const shown = useBench((s) => (s.workspaceTab ?? (s.caseTable ? 'workspace' : 'report')) === where);
  if (!shown) return null;
  return <GtHealthBody where={where} />;
}

function GtHealthBody({ where }: { where: 'workspace' | 'report' }) {
  const health = useBench((s) => s.gtHealth);
  const running = useBench((s) => s.gtHealthRunning);
  const progress = useBench((s) => s.gtHealthProgress);
  const error = useBench((s) => s.gtHealthError);
  const active = useBench((s) => s.caseQuery.facets[GT_HEALTH_FACET] ?? EMPTY_KINDS);
  const rows = useMemo(() => (health ? kindRows(health) : []), [health]);
  const cases = useMemo(() => new Set(health?.findings.map((f) => f.case_id)).size, [health]);
  return (
    <section className="panel gt-health" aria-label="GT health" data-testid={`gt-health-${where}`} data-running={running}>
      <h3>
        GT health{' '}
        <small className="muted" title="Problems of the ground truth itself, found without any model (shared/specs/lint.md). Re-checked after each GT edit.">
          checked without predictions
        </small>
      </h3>
      {running && (
        <p className="muted" role="status" data-testid="gt-health-running">
          Checking the GT{progress && progress.total > 0 ? ` — ${progress.done.toLocaleString()} of ${progress.total.toLocaleString()}` : '…'}
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          GT health: {error}
        </p>
      )}
      {health && (
        <p data-testid="gt-health-summary">
          {health.findings.length === 0
            ? `No finding in ${health.dataset.cases.toLocaleString()} cases.`
            : `${health.findings.length.toLocaleString()} finding${health.findings.length === 1 ? '' : 's'} in ${cases.toLocaleString()} of ${health.dataset.cases.toLocaleString()} cases.`}
          {health.corrections > 0 && (
            <span className="muted" data-testid="gt-health-fixed" data-fixed={health.fixed.length}>
              {' '}
              Your {health.corrections} GT correction{health.corrections === 1 ? '' : 's'} fixed {health.fixed.length}.
            </span>
          )}
        </p>
      )}
      {rows.length > 0 && (
        <table className="gt-health-kinds">
          <thead>
            <tr>
              <th scope="col">kind</th>
              <th scope="col" title="findings (cases)">count</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.kind} data-testid="gt-health-row" data-kind={r.kind} data-count={r.findings} aria-selected={active.includes(r.kind)}>
                <td>
                  <button type="button" className="linklike" title={`List the ${r.cases} case(s) with ${kindLabel(r.kind)} and open the first`} onClick={() => showKind(r.kind, health!.findings)}>
                    <span className={`sev sev-${r.severity}`}>{r.severity}</span> {kindLabel(r.kind)}
                  </button>
                </td>
                <td className="num">
                  {r.findings.toLocaleString()}
                  {r.cases !== r.findings && <span className="muted"> ({r.cases.toLocaleString()} cases)</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {active.length > 0 && where === 'workspace' && (
        <button type="button" className="linklike" onClick={() => useBench.getState().setFacetFilter(GT_HEALTH_FACET, null)}>
          Show every case
        </button>
      )}
      <ExportCorrectedGt />
      {error && (
        <button type="button" onClick={() => void refreshGtHealth()}>
          Check again
        </button>
      )}
    </section>
  );
}

/** The corrected GT in the benchmark's own files, with GT-CHANGELOG.md and gt-changelog.json, as one zip. */
function ExportCorrectedGt() {
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  const benchmark = useBench((s) => s.dataset?.benchmark);
  const corrections = useBench((s) => s.gtHealth?.corrections ?? 0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!fingerprint || !benchmark) return null;
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const list = await correctionsForScoring(fingerprint);
      downloadGroundTruth(await scoringClient().exportCorrectedGt(list), `${benchmark}-corrected_gt`);
    } catch (e) {
      setError((e as Error).message.split('\n')[0]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <p>
      <button
        type="button"
        data-testid="export-gt-changelog"
        disabled={busy}
        onClick={() => void run()}
        title="The ground truth with your corrections, in the benchmark's own files, and a changelog of each changed instance and the findings it fixed (one .zip)"
      >
        {busy ? 'Preparing…' : `Download corrected GT + changelog (${corrections} correction${corrections === 1 ? '' : 's'})`}
      </button>
      {error && (
        <span role="alert" className="error">
          {' '}
          {error}
        </span>
      )}
    </p>
  );
}

/**
 * The GT health findings of the case on screen, in the details panel: the opened one marked and
 * its text in full; a click on another selects its instance on the canvas.
 */
export function CaseFindings({ caseId }: { caseId: string }) {
  const byCase = useFindingsByCase();
  const focus = useBench((s) => s.gtFocus);
  const running = useBench((s) => s.gtHealthRunning);
  const list = byCase.get(caseId) ?? EMPTY;
  const hasHealth = useBench((s) => s.gtHealth !== null);
  if (!hasHealth) return null;
  const isFocused = (f: GtHealthFinding) => focus !== null && focus.caseId === caseId && focus.kind === f.kind && focus.instance === f.instance && focus.added === f.added;
  return (
    <section className="case-findings" aria-label="GT health of this case" data-testid="case-findings" data-count={list.length}>
      <strong>GT health</strong>
      {running && <span className="muted"> (re-checking…)</span>}
      {list.length === 0 ? (
        <p className="muted" data-testid="case-findings-none">
          No finding in this case.
        </p>
      ) : (
        <ul>
          {list.map((f, i) => {
            const on = isFocused(f);
            return (
              <li key={`${f.kind}|${f.instance}|${f.added}|${i}`} data-testid={on ? 'finding-focused' : 'finding'} data-kind={f.kind} data-instance={f.instance ?? ''} aria-current={on || undefined}>
                <button
                  type="button"
                  className="linklike"
                  title="Select this instance on the image"
                  onClick={() => useBench.getState().focusFinding({ caseId, kind: f.kind, instance: f.instance, added: f.added })}
                >
                  <span className={`sev sev-${f.severity}`}>{f.severity}</span> {kindLabel(f.kind)} · {findingPlace(f)}
                </button>
                <div className="finding-detail">
                  <bdi>{f.detail}</bdi>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * The instance the viewer should select for the case on screen: the finding opened from the
 * panel. A case opened from a list filtered on finding kinds opens on its first such finding.
 * The caller (the whole case area) re-renders only when that first finding changes, not on
 * every new check.
 */
export function useFindingFocus(caseId: string | null, record: CaseRecord | undefined): { side: 'gt'; id: number; seq: number } | null {
  const focus = useBench((s) => s.gtFocus);
  const kinds = useBench((s) => s.caseQuery.facets[GT_HEALTH_FACET] ?? EMPTY_KINDS);
  const first = useBench((s) => {
    if (!caseId || kinds.length === 0) return null;
    const f = s.gtHealth?.findings.find((x) => x.case_id === caseId && kinds.includes(x.kind));
    return f ? JSON.stringify([f.kind, f.instance ?? null, f.added ?? null]) : null;
  });
  useEffect(() => {
    if (!caseId || !first || focus?.caseId === caseId) return;
    const [kind, instance, added] = JSON.parse(first) as [string, number | null, number | null];
    useBench.getState().focusFinding({ caseId, kind, instance: instance ?? undefined, added: added ?? undefined });
  }, [caseId, first, focus]);
  if (!focus || !caseId || focus.caseId !== caseId || focus.instance === undefined || !record) return null;
  return { side: 'gt', id: focus.instance, seq: focus.seq };
}
