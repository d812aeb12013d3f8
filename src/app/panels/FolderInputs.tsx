/**
 * "Open folder" and "Add predictions" buttons. Where the File System Access pickers exist they are
 * used; otherwise the buttons click hidden <input> elements (webkitdirectory for folders). The
 * inputs are always in the page, labelled, so keyboard users and tests can use them directly.
 */
import { useRef } from 'react';
import { hasDirectoryPicker, hasFilePicker, listingFromDirectoryInput, listingFromFileInput, pickDirectory, pickFiles } from '../../io';
import type { Listing } from '../../io/listing';
import { addPredictions } from '../store/actions';
import { openDatasetListing } from './openFolder';

const reportError = (e: unknown) => console.error(e);

export function OpenFolderButton({ label = 'Open folder…' }: { label?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const click = async () => {
    if (!hasDirectoryPicker()) {
      input.current?.click();
      return;
    }
    const picked = await pickDirectory().catch((e) => {
      reportError(e);
      return null;
    });
    if (picked) await openDatasetListing(picked.listing, picked.handle);
  };
  return (
    <>
      <button type="button" className="primary" onClick={click}>
        {label}
      </button>
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        aria-label="Choose a dataset folder"
        data-testid="dataset-folder-input"
        // webkitdirectory is not in React's typings; set as a plain attribute.
        {...{ webkitdirectory: '', directory: '' }}
        multiple
        onChange={(e) => {
          const l = listingFromDirectoryInput(e.currentTarget.files ?? []);
          e.currentTarget.value = '';
          if (l) void openDatasetListing(l);
        }}
      />
    </>
  );
}

/**
 * `where` names a second copy (the workspace's) so test ids stay unique while both views are in
 * the page; `inline` lays the buttons out in a row; `filesOnly` leaves the folder button out and
 * `filesLabel` names the files button (a short one where room is scarce).
 */
export function AddPredictionsButtons({
  where,
  inline = false,
  filesOnly = false,
  filesLabel = 'Add prediction files…',
}: {
  where?: string;
  inline?: boolean;
  filesOnly?: boolean;
  filesLabel?: string;
} = {}) {
  const suffix = where ? `-${where}` : '';
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const add = (l: Listing | null) => {
    if (l) void addPredictions(l);
  };
  return (
    <div className={inline ? 'add-preds inline' : 'add-preds'}>
      <button
        type="button"
        onClick={async () => {
          if (hasFilePicker()) add(await pickFiles().catch(() => null));
          else files.current?.click();
        }}
        title="One prediction file per model (several may be chosen at once)"
      >
        {filesLabel}
      </button>
      {!filesOnly && (
        <button
          type="button"
          title="A folder of per-image files (e.g. ICDAR res_img_*.txt) or one sub-folder per model"
          onClick={async () => {
            if (hasDirectoryPicker()) add((await pickDirectory().catch(() => null))?.listing ?? null);
            else folder.current?.click();
          }}
        >
          Add prediction folder…
        </button>
      )}
      <input
        ref={files}
        type="file"
        multiple
        className="visually-hidden"
        aria-label="Choose prediction files"
        data-testid={`prediction-files-input${suffix}`}
        onChange={(e) => {
          const l = listingFromFileInput(e.currentTarget.files ?? []);
          e.currentTarget.value = '';
          add(l);
        }}
      />
      <input
        ref={folder}
        type="file"
        multiple
        className="visually-hidden"
        aria-label="Choose a prediction folder"
        data-testid={`prediction-folder-input${suffix}`}
        {...{ webkitdirectory: '', directory: '' }}
        onChange={(e) => {
          const l = listingFromDirectoryInput(e.currentTarget.files ?? []);
          e.currentTarget.value = '';
          add(l);
        }}
      />
    </div>
  );
}
