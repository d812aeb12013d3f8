import { describe, expect, it } from 'vitest';
import { listingFromDirectoryInput, listingFromFileInput } from './inputFiles';
import { filesListing, isHiddenPath } from './listing';

const file = (rel: string, text = 'x') => {
  const f = new File([text], rel.split('/').at(-1)!);
  Object.defineProperty(f, 'webkitRelativePath', { value: rel });
  return f;
};

describe('listings', () => {
  it('treats dot-files, dot-folders and macOS resource folders as hidden', () => {
    expect(isHiddenPath('.DS_Store')).toBe(true);
    expect(isHiddenPath('anno/.git/config')).toBe(true);
    expect(isHiddenPath('__MACOSX/anno/x.json')).toBe(true);
    expect(isHiddenPath('anno/hard/images/img_1.jpg')).toBe(false);
    expect(isHiddenPath('anno/v1.0/a.json')).toBe(false);
  });

  it('strips the chosen folder from webkitdirectory paths and skips hidden files', () => {
    const l = listingFromDirectoryInput([file('ltb-mini/anno/a.json'), file('ltb-mini/.DS_Store'), file('ltb-mini/anno/hard/images/img_1.jpg')])!;
    expect(l.label).toBe('ltb-mini');
    expect(l.kind).toBe('folder');
    expect(l.files.map((f) => f.path)).toEqual(['anno/a.json', 'anno/hard/images/img_1.jpg']);
    expect(listingFromDirectoryInput([])).toBeNull();
  });

  it('makes loose files a "files" listing (one model each)', () => {
    const l = listingFromFileInput([new File(['{}'], 'model-a.json'), new File(['{}'], 'model-b.jsonl')])!;
    expect(l.kind).toBe('files');
    expect(l.files.map((f) => f.path)).toEqual(['model-a.json', 'model-b.jsonl']);
    expect(filesListing([new File([''], '.hidden')]).files).toEqual([]);
  });
});
