/**
 * Protocol and option controls, built from the adapter's ProtocolSpecs. Changing one rescores;
 * the report names the protocol that produced the numbers it shows.
 */
import { useState } from 'react';
import type { OptionSpec, OptionValue } from '../../core';
import { chooseProtocol, setOption } from '../store/actions';
import { useBench } from '../store';

export function ProtocolPanel() {
  const specs = useBench((s) => s.dataset?.protocols);
  const protocol = useBench((s) => s.protocol);
  const scoring = useBench((s) => s.scoring);
  if (!specs || !protocol) return null;
  const spec = specs.find((p) => p.name === protocol.name);
  return (
    <section className="panel" aria-label="Protocol and options">
      <h3>Protocol</h3>
      <label className="field">
        <span>protocol</span>
        <select aria-label="Protocol" value={protocol.name} onChange={(e) => void chooseProtocol(e.target.value)}>
          {specs.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
              {p.default ? ' (default)' : ''}
            </option>
          ))}
        </select>
      </label>
      {spec && <p className="muted small">{spec.description}</p>}
      {spec?.options.map((o) => (
        <OptionControl key={`${spec.name}-${o.key}`} spec={o} value={protocol.options[o.key]} disabled={scoring} />
      ))}
    </section>
  );
}

function OptionControl({ spec, value, disabled }: { spec: OptionSpec; value: OptionValue | undefined; disabled: boolean }) {
  const label = (
    <span title={spec.help}>
      {spec.key}
      {spec.default === null ? ' (optional)' : ''}
    </span>
  );
  if (spec.kind === 'boolean') {
    return (
      <label className="field check" title={spec.help}>
        <input type="checkbox" aria-label={spec.key} checked={value === true} disabled={disabled} onChange={(e) => void setOption(spec.key, e.target.checked)} />
        {label}
      </label>
    );
  }
  if (spec.kind === 'enum' && spec.choices) {
    return (
      <label className="field" title={spec.help}>
        {label}
        <select aria-label={spec.key} value={String(value ?? '')} disabled={disabled} onChange={(e) => void setOption(spec.key, spec.choices!.find((c) => String(c) === e.target.value) ?? e.target.value)}>
          {value === undefined && <option value="">—</option>}
          {spec.choices.map((c) => (
            <option key={String(c)} value={String(c)}>
              {String(c)}
            </option>
          ))}
        </select>
      </label>
    );
  }
  return <TextOption spec={spec} value={value} disabled={disabled} label={label} />;
}

/** Numbers and strings commit on Enter or blur, so typing "0.55" does not rescore three times. */
function TextOption({ spec, value, disabled, label }: { spec: OptionSpec; value: OptionValue | undefined; disabled: boolean; label: React.ReactNode }) {
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? (value === undefined ? '' : String(value));
  const commit = () => {
    if (draft === null) return;
    setDraft(null);
    if (draft === (value === undefined ? '' : String(value))) return;
    if (spec.kind === 'number') {
      const n = Number(draft);
      if (draft.trim() === '' || !Number.isFinite(n)) return;
      void setOption(spec.key, n);
    } else void setOption(spec.key, draft);
  };
  return (
    <label className="field" title={spec.help}>
      {label}
      <input
        aria-label={spec.key}
        type={spec.kind === 'number' ? 'number' : 'text'}
        step="any"
        value={shown}
        placeholder={spec.default === null ? 'not set' : undefined}
        disabled={disabled}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
    </label>
  );
}
