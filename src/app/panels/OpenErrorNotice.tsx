/**
 * Why another folder could not be opened while one is open: under the top bar (it used to fill
 * the bar itself, hiding the open dataset's name), verdict first, with a list of the layouts when
 * no benchmark was recognised, and saying that the open dataset is still there. Dismissible.
 */
import { OpenErrorText } from '../messages/VerdictText';
import { useBench } from '../store';

export function OpenErrorNotice() {
  const error = useBench((s) => (s.dataset ? s.openError : null));
  const label = useBench((s) => s.dataset?.label);
  if (!error) return null;
  return (
    <section className="model-notice open-error-notice" role="alert" aria-label="Folder not opened">
      <div className="model-notice-head">
        <h3>The folder was not opened — {label} is still open</h3>
        <button type="button" className="icon" aria-label="Dismiss" title="Dismiss" onClick={() => useBench.setState({ openError: null })}>
          ×
        </button>
      </div>
      <OpenErrorText message={error} />
    </section>
  );
}
