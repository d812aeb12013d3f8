import { describe, expect, it } from 'vitest';
import { cleanModelOutput, stripCodeFence, stripThink, tryParseJson } from './modelOutput';

describe('stripThink', () => {
  it('removes every closed think block', () => {
    expect(stripThink('<think>a</think>x<think>b</think>y')).toBe('xy');
  });
  it('keeps only what follows the last remaining </think>', () => {
    expect(stripThink('reasoning without an opening tag</think>\nanswer')).toBe('\nanswer');
    expect(stripThink('a</think>b</think>c')).toBe('c');
  });
  it('drops an unclosed <think> to the end', () => {
    expect(stripThink('answer <think>still thinking')).toBe('answer ');
  });
  it('handles multi-line blocks and leaves text without tags alone', () => {
    expect(stripThink('<think>\nline 1\nline 2\n</think>\n\nHarbourFront')).toBe('\n\nHarbourFront');
    expect(stripThink('plain')).toBe('plain');
  });
});

describe('stripCodeFence', () => {
  it('removes a fence surrounding the whole trimmed output, with its info string', () => {
    expect(stripCodeFence('  ```json\n{"text": "A"}\n```  ')).toBe('{"text": "A"}');
    expect(stripCodeFence('```\nSUMMER SALE\n```')).toBe('SUMMER SALE');
  });
  it('keeps a fence that does not surround everything', () => {
    expect(stripCodeFence('Here: ```json\n[1]\n```')).toBe('Here: ```json\n[1]\n```');
    expect(stripCodeFence('```json\n[1]\n``` trailing')).toBe('```json\n[1]\n``` trailing');
  });
});

describe('cleanModelOutput', () => {
  it('strips think first, then the fence, and names both steps', () => {
    expect(cleanModelOutput('<think>I should output JSON.</think>\n```json\n{"bbox_2d": [1, 2, 3, 4]}\n```')).toEqual({
      text: '{"bbox_2d": [1, 2, 3, 4]}',
      steps: ['think', 'fence'],
    });
  });
  it('reports no step for clean text', () => {
    expect(cleanModelOutput('  hello ')).toEqual({ text: 'hello', steps: [] });
  });
});

describe('tryParseJson', () => {
  it('never throws', () => {
    expect(tryParseJson('{bad')).toEqual({ ok: false });
    expect(tryParseJson('')).toEqual({ ok: false });
    expect(tryParseJson('1.50')).toEqual({ ok: true, value: 1.5 });
  });
});
