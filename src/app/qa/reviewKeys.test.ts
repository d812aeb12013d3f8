import { describe, expect, it } from 'vitest';
import { KEY_BINDINGS } from '../canvas/keys';
import { isTypingTarget, reviewActionFor } from './reviewKeys';

describe('review keys', () => {
  it('maps Shift+digit to the case status and Alt+Shift+digit to the instance status, on any layout', () => {
    expect(reviewActionFor({ key: '!', code: 'Digit1', shiftKey: true })).toEqual({ kind: 'caseStatus', status: 'unreviewed' });
    expect(reviewActionFor({ key: '$', code: 'Digit4', shiftKey: true })).toEqual({ kind: 'caseStatus', status: 'gt_wrong' });
    expect(reviewActionFor({ key: '&', code: 'Digit6', shiftKey: true, altKey: true })).toEqual({ kind: 'instanceStatus', status: 'ambiguous' });
    expect(reviewActionFor({ key: '7', code: 'Digit7', shiftKey: true })).toBeNull();
    expect(reviewActionFor({ key: '1', code: 'Digit1' })).toBeNull(); // the viewer's 1:1
  });

  it('maps undo and redo', () => {
    expect(reviewActionFor({ key: 'z', ctrlKey: true })).toEqual({ kind: 'undo' });
    expect(reviewActionFor({ key: 'Z', metaKey: true, shiftKey: true })).toEqual({ kind: 'redo' });
    expect(reviewActionFor({ key: 'y', ctrlKey: true })).toEqual({ kind: 'redo' });
  });

  it('takes no plain key the viewer uses', () => {
    for (const b of KEY_BINDINGS) for (const key of b.keys) expect(reviewActionFor({ key, code: '' }), key).toBeNull();
    expect(reviewActionFor({ key: 'n' })).toEqual({ kind: 'nextUnreviewed' });
  });

  it('leaves keys typed into text fields alone', () => {
    expect(isTypingTarget({ tagName: 'TEXTAREA' } as unknown as EventTarget)).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' } as unknown as EventTarget)).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' } as unknown as EventTarget)).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' } as unknown as EventTarget)).toBe(false);
  });
});
