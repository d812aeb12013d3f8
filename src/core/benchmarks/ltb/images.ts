/**
 * Finds each annotated image in the opened folder: first `img_path` against the image folders
 * the layout implies (LTB: `<root>/anno/hard/images/` beside `anno/mmocr1.x_format/`), then by
 * file name anywhere under the folder. What stays missing is reported, never guessed.
 */
import { IMAGE_EXTENSIONS, NameIndex, dirname, joinPath, normalizePath, type FileSource } from '../../io/fileSource';
import type { LtbImage } from './dataset';
import type { WarningList } from './values';
import { ImageProblems, checkImageFiles } from '../../image/imageProblems';

/** Image folders to try for annotation files in `annoDirs`, most specific first. */
function candidateDirs(annoDirs: readonly string[]): string[] {
  const dirs: string[] = [];
  const add = (d: string) => {
    if (!dirs.includes(d)) dirs.push(d);
  };
  for (const a of annoDirs) {
    const parent = dirname(a);
    add(joinPath(parent, 'hard/images'));
    add(joinPath(parent, 'images'));
    add(joinPath(a, 'images'));
    add(a);
    add(parent);
    add(dirname(parent));
  }
  add('');
  return dirs;
}

export async function resolveImages(
  src: FileSource,
  images: readonly LtbImage[],
  annoDirs: readonly string[],
  warnings: WarningList,
  signal?: AbortSignal,
): Promise<number> {
  const files = src.list().map((e) => e.path).filter((p) => IMAGE_EXTENSIONS.test(p));
  const have = new Set(files);
  const byName = new NameIndex(files);
  const dirs = candidateDirs(annoDirs);
  const problems = new ImageProblems();
  let found = 0;
  for (const img of images) {
    const rel = normalizePath(img.imgPath);
    let hit: string | undefined;
    for (const d of dirs) {
      const p = joinPath(d, rel);
      if (have.has(p)) {
        hit = p;
        break;
      }
    }
    hit ??= byName.byFileName(rel);
    img.imageFile = hit ?? null;
    if (hit) found++;
    else problems.notFound(img.imgPath);
  }
  const hits = [...new Set(images.map((im) => im.imageFile).filter((f): f is string => !!f))];
  await checkImageFiles(src, hits, problems, signal);
  for (const w of problems.warnings()) warnings.add(w);
  return found;
}
