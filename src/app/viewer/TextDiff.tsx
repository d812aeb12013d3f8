/**
 * The text side of a case: a character-level diff of the (normalised) GT and prediction with
 * CER / NED, the raw model answer with its thinking collapsed, the parsing / extraction rule the
 * adapter applied, and the remaining details. All of it rendered as React text.
 */
import type { CSSProperties } from 'react';
import type { CaseRecord } from '../../core/model';
import { GlyphText } from './GlyphText';
import { extracted, extractionRule, otherDetails, query, rawAnswer, textComparison } from './textCase';

const OP_STYLE: Record<string, CSSProperties> = {
  equal: {},
  replace: { background: 'rgba(213,94,0,0.45)' },
  delete: { background: 'rgba(230,159,0,0.45)', textDecoration: 'line-through' },
  insert: { background: 'rgba(0,114,178,0.5)', textDecoration: 'underline' },
};

/** Longer than this (code units), the raw answer and the extract are folded behind a summary. */
const LONG = 160;

const fmt = (v: number) => v.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');

export function TextDiff({ record, model }: { record: CaseRecord; model?: string }) {
  const cmp = textComparison(record);
  const raw = rawAnswer(record);
  const rule = extractionRule(record);
  const ext = extracted(record);
  const others = otherDetails(record);
  const q = query(record);
  if (!cmp && !raw && !rule && !q && others.length === 0 && record.errors.length === 0) return null;
  return (
    // At most a third of the details panel: the GT / prediction lists below need the room (a
    // Chronicles spotting answer's raw JSON filled the column and left them ~1 px).
    <div className="bl-text-diff" data-testid="text-diff" style={{ fontSize: 13, padding: 6, borderBottom: '1px solid #333', maxHeight: '33%', overflow: 'auto', flex: 'none' }}>
      {model && <div style={{ opacity: 0.7 }}><bdi>{model}</bdi></div>}
      {q && (
        <div data-testid="case-query" style={{ fontSize: 14, marginBottom: 4 }}>
          <span style={{ opacity: 0.7 }}>query: </span>
          <GlyphText text={q} />
        </div>
      )}
      {cmp && (
        <>
          <div style={{ opacity: 0.7 }}>{cmp.normalised ? 'normalised GT → prediction' : 'GT → prediction'}</div>
          <div data-testid="diff-gt" style={{ fontSize: 16, whiteSpace: 'pre-wrap', unicodeBidi: 'isolate' }}>
            <span style={{ opacity: 0.6, fontSize: 12 }}>GT </span>
            {cmp.ops.map((o, i) => (o.gt ? <span key={i} data-op={o.op} style={o.op === 'insert' ? undefined : OP_STYLE[o.op]}><GlyphText text={o.gt} isolate={false} /></span> : null))}
          </div>
          <div data-testid="diff-pred" style={{ fontSize: 16, whiteSpace: 'pre-wrap', unicodeBidi: 'isolate' }}>
            <span style={{ opacity: 0.6, fontSize: 12 }}>pred </span>
            {cmp.ops.map((o, i) => (o.pred ? <span key={i} data-op={o.op} style={o.op === 'delete' ? undefined : OP_STYLE[o.op]}><GlyphText text={o.pred} isolate={false} /></span> : null))}
          </div>
          <div data-testid="diff-metrics">
            edit distance {cmp.distance} · CER {fmt(cmp.officialCer ?? cmp.cer)} · NED {fmt(cmp.officialNed ?? cmp.ned)}
            {cmp.officialCer === null && cmp.officialNed === null && <span style={{ opacity: 0.6 }}> (computed by the viewer)</span>}
          </div>
        </>
      )}
      {record.errors.length > 0 && <div data-testid="case-errors">errors: {record.errors.join(', ')}</div>}
      {rule && <div data-testid="extraction-rule">rule applied: {rule}</div>}
      {ext &&
        (ext.length > LONG ? (
          <details data-testid="extracted">
            <summary>extracted ({[...ext].length} characters)</summary>
            <pre style={{ whiteSpace: 'pre-wrap', margin: 0, overflowWrap: 'anywhere' }}>
              <GlyphText text={ext} />
            </pre>
          </details>
        ) : (
          <div data-testid="extracted">
            extracted: <GlyphText text={ext} />
          </div>
        ))}
      {raw && (
        <div data-testid="raw-answer">
          {raw.thinking && (
            <details>
              <summary>thinking ({[...raw.thinking].length} characters)</summary>
              <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
                <GlyphText text={raw.thinking} />
              </pre>
            </details>
          )}
          {raw.answer.length > LONG ? (
            // A long answer (a JSON list of boxes) is folded: one click shows it.
            <details>
              <summary>raw answer ({[...raw.answer].length} characters)</summary>
              <pre style={{ whiteSpace: 'pre-wrap', margin: 0, background: '#111', padding: 4, overflowWrap: 'anywhere' }}>
                <GlyphText text={raw.answer} />
              </pre>
            </details>
          ) : (
            <>
              <div style={{ opacity: 0.7 }}>raw answer</div>
              <pre style={{ whiteSpace: 'pre-wrap', margin: 0, background: '#111', padding: 4, overflowWrap: 'anywhere' }}>
                <GlyphText text={raw.answer} />
              </pre>
            </>
          )}
        </div>
      )}
      {others.length > 0 && (
        <details data-testid="case-details">
          <summary>more details ({others.length})</summary>
          <dl style={{ margin: '4px 0', display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '0 8px' }}>
            {others.map(([k, v]) => (
              <div key={k} style={{ display: 'contents' }}>
                <dt style={{ opacity: 0.7 }}>{k}</dt>
                <dd style={{ margin: 0, wordBreak: 'break-word' }}>
                  <GlyphText text={v.length > 400 ? `${v.slice(0, 400)}…` : v} />
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </div>
  );
}
