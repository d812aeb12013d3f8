/**
 * The shell: a landing screen until something is open, then the workspace — models, protocol,
 * warnings on the left; the report on top; the case list, the viewer and the review panel below.
 * The whole page accepts dropped folders and files.
 */
import { CaseWorkbench } from './panels/CaseWorkbench';
import { DropZone } from './panels/DropZone';
import { OpenFolderButton } from './panels/FolderInputs';
import { Landing } from './panels/Landing';
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
      {open ? <Workspace /> : <Landing />}
    </DropZone>
  );
}

function DatasetBar() {
  const ds = useBench((s) => s.dataset);
  const opening = useBench((s) => s.status === 'opening');
  const error = useBench((s) => (s.dataset ? s.openError : null));
  const close = useBench((s) => s.closeDataset);
  if (!ds) return null;
  return (
    <div className="dataset-bar">
      <p className="dataset-summary" data-testid="dataset-summary" title={ds.info.fingerprint}>
        {ds.info.summary}
        {ds.demo ? <span className="badge">demo</span> : <span className="muted"> · <bdi data-testid="dataset-label">{ds.label}</bdi></span>}
      </p>
      {opening && <span role="status">Opening…</span>}
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
      <OpenFolderButton label="Open another folder…" />
      <button type="button" onClick={close}>
        Close
      </button>
    </div>
  );
}

function Workspace() {
  return (
    <div className="workspace">
      <aside className="sidebar">
        <ModelsPanel />
        <ProtocolPanel />
        <WarningsPanel />
        <ReviewsPanel />
      </aside>
      <main className="main">
        <ScoringStatus />
        <ReportView />
        <NoModelsHint />
        <CaseWorkbench />
      </main>
    </div>
  );
}

function NoModelsHint() {
  const none = useBench((s) => s.models.length === 0 && !s.report);
  if (!none) return null;
  return <p className="hint">Add one or more prediction files (or drop them on the page) to score them.</p>;
}
