/**
 * The shell: a landing screen until something is open, then two views, one key apart:
 * - the workspace (key w): case list, canvas and details panel filling the window;
 * - the report (key r): the official numbers, with models, protocol, warnings and reviews.
 * Until there are cases the report shows; once there are — scored, or the GT alone of a folder
 * opened without predictions — the workspace does (unless the user or a link chose). Both views
 * can always be reached, and both offer "Add prediction files…". A click on a report cell or plot bar filters the list and opens the
 * workspace. The whole page accepts dropped folders and files.
 */
import { useEffect } from 'react';
import { isTypingTarget } from './canvas/keys';
import { TAB_KEYS } from './keyHelp';
import { BenchmarkChoice } from './panels/BenchmarkChoice';
import { LinkNeeds } from './panels/LinkNeeds';
import { ModelStrip } from './panels/ModelStrip';
import type { WorkspaceTab } from './store/casesSlice';
import { CaseWorkbench } from './panels/CaseWorkbench';
import { DropZone } from './panels/DropZone';
import { GtHealthPanel, useGtHealthWatch } from './panels/GtHealthPanel';
import { AddPredictionsButtons, OpenFolderButton } from './panels/FolderInputs';
import { Landing } from './panels/Landing';
import { ModelNotice } from './panels/ModelNotice';
import { OpenErrorNotice } from './panels/OpenErrorNotice';
import { ModelsPanel } from './panels/ModelsPanel';
import { ProtocolPanel } from './panels/ProtocolPanel';
import { ReviewsPanel } from './panels/ReviewsPanel';
import { ScoringStatus } from './panels/ScoringStatus';
import { WarningsPanel } from './panels/WarningsPanel';
import { ReportView } from './report/ReportView';
import { useStartup } from './startup';
import { useBench } from './store';

export function App() {
  useStartup();
  const open = useBench((s) => s.status === 'open' || (s.status === 'opening' && s.dataset !== null));
  return (
    <DropZone>
      <header className="topbar">
        <h1>Benchlens</h1>
        <DatasetBar />
      </header>
      <OpenErrorNotice />
      <LinkNeeds />
      <BenchmarkChoice />
      {open ? <Workspace /> : <Landing />}
    </DropZone>
  );
}

function DatasetBar() {
  const ds = useBench((s) => s.dataset);
  const opening = useBench((s) => s.status === 'opening');
  const close = useBench((s) => s.closeDataset);
  if (!ds) return null;
  return (
    <div className="dataset-bar">
      <p className="dataset-summary" data-testid="dataset-summary" title={ds.info.fingerprint}>
        {ds.info.summary}
        {ds.demo ? <span className="badge">demo</span> : <span className="muted"> · <bdi data-testid="dataset-label">{ds.label}</bdi></span>}
      </p>
      {opening && <span role="status">Opening…</span>}
      <Tabs />
      {/* Predictions can be added from either view, in every state (files; folders beside the report). */}
      <AddPredictionsButtons where="topbar" inline filesOnly filesLabel="+ Add predictions…" />
      <OpenFolderButton label="Open another folder…" />
      <button type="button" onClick={close}>
        Close
      </button>
    </div>
  );
}

/** The view on screen: the user's (or a link's) choice, else the report until cases are scored. */
export function useTab(): WorkspaceTab {
  const chosen = useBench((s) => s.workspaceTab);
  const hasCases = useBench((s) => s.caseTable !== null);
  return chosen ?? (hasCases ? 'workspace' : 'report');
}


function Tabs() {
  const tab = useTab();
  const setTab = useBench((s) => s.setWorkspaceTab);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target as HTMLElement | null)) return;
      const t = (TAB_KEYS as Record<string, WorkspaceTab | undefined>)[e.key];
      if (!t) return;
      e.preventDefault();
      useBench.getState().setWorkspaceTab(t);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <nav className="tabs" role="tablist" aria-label="View">
      {(
        [
          ['workspace', 'Workspace', 'w'],
          ['report', 'Report', 'r'],
        ] as const
      ).map(([id, label, key]) => (
        <button
          key={id}
          type="button"
          role="tab"
          id={`tab-${id}`}
          aria-selected={tab === id}
          aria-controls={`view-${id}`}
          aria-keyshortcuts={key}
          title={`${label} (key ${key})`}
          data-testid={`tab-${id}`}
          onClick={() => setTab(id)}
        >
          {label} <kbd>{key}</kbd>
        </button>
      ))}
    </nav>
  );
}

function Workspace() {
  const tab = useTab();
  useGtHealthWatch();
  return (
    <>
      <ScoringStatus />
      <ModelNotice />
      <div className="view-report" id="view-report" role="tabpanel" aria-labelledby="tab-report" hidden={tab !== 'report'}>
        <aside className="sidebar">
          <ModelsPanel />
          <ProtocolPanel />
          <WarningsPanel />
          <GtHealthPanel where="report" />
          <ReviewsPanel />
        </aside>
        <main className="main">
          <ReportView />
          <NoModelsHint />
        </main>
      </div>
      <div className="view-workspace" id="view-workspace" role="tabpanel" aria-labelledby="tab-workspace" hidden={tab !== 'workspace'}>
        <ModelStrip />
        <CaseWorkbench />
      </div>
    </>
  );
}

function NoModelsHint() {
  const none = useBench((s) => s.models.length === 0 && !s.report);
  if (!none) return null;
  return (
    <p className="hint">
      Add one or more prediction files (or drop them on the page) to score them. Meanwhile the{' '}
      <button type="button" className="linklike" onClick={() => useBench.getState().setWorkspaceTab('workspace')}>
        Workspace (w)
      </button>{' '}
      shows every case with its ground truth, and GT health lists what looks wrong in it.
    </p>
  );
}
