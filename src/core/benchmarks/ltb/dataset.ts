/**
 * LTB ground truth as the adapter holds it: one list of images, each with ONE list of GT
 * instances shared by all 15 split files (joined on image + identical polygon). Per instance, a
 * bit per split says whether it appears in that file and whether it is care there; the 13
 * category bits of `care` are the instance's challenge tags.
 */
import type { DatasetInfo, Shape } from '../../model';

export interface LtbGt {
  /** Flat polygon exactly as the file has it. */
  points: number[];
  text?: string;
  /** Bit s: the instance is listed in split s. */
  present: number;
  /** Bit s: the instance is care (`ignore: false`) in split s. */
  care: number;
  /** Challenge categories (category-split bits), kept apart from `care` so a care toggle can restore them. */
  tags: number;
  /** The drawing shape of `points`, made once and shared by every case (reset when `points` change). */
  shape?: Shape;
  /** Why the MMOCR 0.6.3 COCO loader drops it entirely (`ignore: true`, bbox side < 1). */
  drop063?: string;
  /**
   * Texts other split files give this same polygon when they differ from `text` (the first
   * file's): GT health reports them (lint `inconsistent_across_splits`); scoring ignores text.
   */
  otherTexts?: { split: number; text: string }[];
}

export interface LtbImage {
  /** The case id: the image's file name. */
  name: string;
  /** `img_path` as the annotation file writes it. */
  imgPath: string;
  /** Where the image is in the opened folder; null when it is missing. */
  imageFile: string | null;
  width?: number;
  height?: number;
  gt: LtbGt[];
  /** Bit s: the image is listed in split s. */
  splits: number;
  /**
   * A second (third …) data_list entry for the same img_path: index of the first entry, whose
   * predictions it shares. MMOCR scores each entry as a sample, so both count.
   */
  dupOf?: number;
  /**
   * Per split, the GT indices in that file's order when it differs from ascending index order
   * (first-fit matching walks GT in file order, so the order is part of the protocol).
   */
  order?: (Int32Array | undefined)[];
}

export type GtFormat = 'mmocr1.x' | 'coco' | 'icdar2015';

export interface LtbSplitFile {
  split: number;
  /** Path of the file in the opened folder ('' for an ICDAR folder). */
  path: string;
}

export interface LtbDataset {
  info: DatasetInfo;
  format: GtFormat;
  images: LtbImage[];
  /** Bit s: split s was loaded. */
  splitMask: number;
  splitFiles: LtbSplitFile[];
  /** Image file name → index, and stem → index, for matching predictions. */
  byName: Map<string, number>;
  byStem: Map<string, number>;
}

export function buildNameMaps(images: readonly LtbImage[]): { byName: Map<string, number>; byStem: Map<string, number> } {
  const byName = new Map<string, number>();
  const byStem = new Map<string, number>();
  images.forEach((im, i) => {
    if (im.dupOf !== undefined) return; // predictions reach it through the first entry
    if (!byName.has(im.name)) byName.set(im.name, i);
    const dot = im.name.lastIndexOf('.');
    const st = dot > 0 ? im.name.slice(0, dot) : im.name;
    if (!byStem.has(st)) byStem.set(st, i);
  });
  return { byName, byStem };
}
