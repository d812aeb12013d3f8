/** The loaded models: add more (files, folder, or drop), rename or remove one. */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { removeModel, renameModel } from '../store/actions';
import { useBench } from '../store';
import { AddPredictionsButtons } from './FolderInputs';
import { DuplicateNote } from './ModelStrip';
import { BoxDialectNote } from './BoxDialectNote';

export function ModelsPanel() {
  const models = useBench(useShallow((s) => s.models));
  const error = useBench((s) => s.modelError);
  const refused = useBench((s) => s.refusals.length);
  return (
    <section className="panel" aria-label="Models">
      <h3>Models ({models.length})</h3>
      {models.length === 0 && <p className="muted">No predictions yet: add prediction files, or drop them on the page.</p>}
      <ul className="models">
        {models.map((m) => (
          <ModelRow key={m} name={m} />
        ))}
      </ul>
      <AddPredictionsButtons />
      {(error || refused > 0) && <p className="muted">See the notice above for the files not added.</p>}
    </section>
  );
}

function ModelRow({ name }: { name: string }) {
  const duplicate = useBench((s) => s.duplicateOf[name]);
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  if (editing) {
    const commit = () => {
      setEditing(false);
      if (value.trim() && value.trim() !== name) void renameModel(name, value);
    };
    return (
      <li>
        <input
          aria-label={`New name for ${name}`}
          value={value}
          autoFocus
          onChange={(e) => setValue(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
            if (e.key === 'Escape') {
              setValue(name);
              setEditing(false);
            }
          }}
        />
      </li>
    );
  }
  return (
    <li>
      <bdi className="model-name">{name}</bdi>{' '}
      <button
        type="button"
        className="icon"
        aria-label={`Rename ${name}`}
        onClick={() => {
          setValue(name);
          setEditing(true);
        }}
      >
        ✎
      </button>
      <button type="button" className="icon" aria-label={`Remove ${name}`} onClick={() => void removeModel(name)}>
        ×
      </button>
      {duplicate && (
        <>
          <br />
          <DuplicateNote model={name} of={duplicate} />
        </>
      )}
      <BoxDialectNote model={name} />
    </li>
  );
}
