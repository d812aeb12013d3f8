/**
 * Dataset text as React text (never HTML), with characters no installed font can draw shown as
 * their code point, so an astral CJK character is a readable "U+2A6D6", not an empty box. Inside
 * a <bdi>: a bidi control in the text (U+202E) reorders that text only, never what surrounds it.
 * `isolate={false}` for the pieces of one line (a diff), which their container isolates whole.
 */
import { Fragment } from 'react';
import { glyphRuns, hasGlyph } from '../canvas/glyphs';

export function GlyphText({ text, isolate = true }: { text: string; isolate?: boolean }) {
  const runs = glyphRuns(text, hasGlyph);
  if (runs.length === 1 && !runs[0].missing) return isolate ? <bdi>{text}</bdi> : <>{text}</>;
  const Wrap = isolate ? 'bdi' : Fragment;
  return (
    <Wrap>
      {runs.map((r, i) =>
        r.missing ? (
          <span key={i} className="bl-codepoint" title={`no installed font has this character: ${r.text}`} style={{ fontFamily: 'monospace', fontSize: '0.85em', padding: '0 2px', border: '1px dashed #999', borderRadius: 3 }}>
            {r.text}
          </span>
        ) : (
          <span key={i}>{r.text}</span>
        ),
      )}
    </Wrap>
  );
}
