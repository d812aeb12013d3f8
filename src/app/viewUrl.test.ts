import { describe, expect, it } from 'vitest';
import type { ProtocolSpec } from '../core';
import { parseViewHash, protocolFromLink, serialiseViewHash } from './viewUrl';

const SPECS: ProtocolSpec[] = [
  {
    name: 'mmocr-1.0.1',
    description: '',
    default: true,
    options: [
      { key: 'iou', kind: 'number', default: 0.5, help: '' },
      { key: 'score_thr', kind: 'number', default: null, help: '' },
    ],
  },
  { name: 'mmocr-0.6.3', description: '', options: [{ key: 'iou', kind: 'number', default: 0.5, help: '' }, { key: 'strict', kind: 'boolean', default: false, help: '' }] },
];

describe('the view part of a link (ds, pf, p, po.*)', () => {
  it('round-trips the folder, the models and the protocol, keeping every other key in its place', () => {
    const hash = serialiseViewHash({ dataset: 'ltb-mini', models: ['a b', 'c&d'], protocol: { name: 'mmocr-0.6.3', options: { iou: 0.7, strict: true } } }, '#a=x&case=img_1.jpg&ds=old&pf=old');
    expect(hash.startsWith('a=x&case=img_1.jpg&')).toBe(true);
    expect(parseViewHash(hash)).toEqual({ dataset: 'ltb-mini', models: ['a b', 'c&d'], protocol: { name: 'mmocr-0.6.3', options: { iou: '0.7', strict: 'true' } } });
  });

  it('types a linked protocol by its spec and drops what the dataset does not offer or cannot read', () => {
    expect(protocolFromLink({ name: 'mmocr-0.6.3', options: { iou: '0.7', strict: 'true' } }, SPECS)).toEqual({ name: 'mmocr-0.6.3', options: { iou: 0.7, strict: true } });
    // A malformed number keeps the default; an option with no default stays unset unless linked.
    expect(protocolFromLink({ name: 'mmocr-1.0.1', options: { iou: 'abc' } }, SPECS)).toEqual({ name: 'mmocr-1.0.1', options: { iou: 0.5 } });
    expect(protocolFromLink({ name: 'mmocr-1.0.1', options: { score_thr: '0.3' } }, SPECS)).toEqual({ name: 'mmocr-1.0.1', options: { iou: 0.5, score_thr: 0.3 } });
    expect(protocolFromLink({ name: 'other', options: {} }, SPECS)).toBeNull();
    expect(protocolFromLink(null, SPECS)).toBeNull();
  });
});
