/**
 * The error taxonomy (errors.md) on LTB: one split at one threshold of one image, built on the
 * geometry the scorer already computed (imageGeometry: pairs, IoUs, intersections, areas), so
 * classing costs a first-fit rerun and a walk over the pairs. New polygon work happens only for
 * a `split` candidate (a union) and for a miss that may be a `score` error of a prediction the
 * pre-filter dropped (those have no pairs in the geometry); both are cached per image.
 */
import { intersectionArea, makeRegion, regionIoU, unionIoU, type Region } from '../../geometry/polygonRegion';
import { classifyImage, FP, ROLE_B, ROLE_I, ROLE_P, type ErrorImage, type ErrorResult, type ErrorRules } from '../../errors/classify';
import type { LtbImage } from './dataset';
import type { ImageGeom } from './imageGeometry';
import type { Variant } from './protocol';
import type { LtbPredImage } from './readPredictions';
import { careInOrder, markIgnored } from './splitCounts';

const BACKGROUND = FP.background;

function cast(points: ArrayLike<number>, f32: boolean): number[] {
  const out = new Array<number>(points.length);
  for (let i = 0; i < points.length; i++) out[i] = f32 ? Math.fround(points[i]) : points[i];
  return out;
}

export class LtbErrors {
  private img!: LtbImage;
  private preds: LtbPredImage | undefined;
  private geom!: ImageGeom;
  private care = new Uint8Array(64);
  private role = new Uint8Array(64);
  private ign = new Uint8Array(64);
  private order = new Int32Array(64);
  private gtPartner = new Int32Array(64);
  private predPartner = new Int32Array(64);
  private isKept = new Uint8Array(64);
  private res: ErrorResult = { fn: new Int8Array(64), fp: new Int8Array(64) };
  /** Per image: GT regions, pre-filtered prediction regions, and the extra-B answer per GT (-2 unknown). */
  private gtRegions: (Region | undefined)[] = [];
  private dropRegions: (Region | undefined)[] = [];
  private extra = new Int32Array(64);
  /** Bounds of the pre-filtered predictions (minX, minY, maxX, maxY per input index), made on first use per image. */
  private dropBounds: Float64Array | null = null;
  private dropList: number[] = [];
  private swallowed: Int32Array | null = null;
  readonly im: ErrorImage;
  private readonly rules: ErrorRules;

  constructor(private readonly v: Variant) {
    this.im = {
      nGt: 0,
      care: this.care,
      nPred: 0,
      role: this.role,
      gStart: [],
      pp: [],
      piou: [],
      gArea: [],
      pArea: [],
      gtPartner: this.gtPartner,
      predPartner: this.predPartner,
    };
    const iou = v.iou;
    this.rules = {
      iou,
      strict: true,
      order: true,
      unionIoU: (g, parts) => unionIoU(this.gtRegion(g), parts.map((j) => this.keptRegion(j))),
      extraB: (g) => this.extraB(g),
      swallowedBy: (j) => (this.swallowed ? this.swallowed[j] : -1),
      predId: (j) => this.geom.kept[j],
    };
  }

  /** Starts a new image (drops the per-image caches); the same image again keeps them. */
  begin(img: LtbImage, preds: LtbPredImage | undefined, geom: ImageGeom): void {
    if (this.img === img && this.preds === preds && this.geom === geom) return;
    this.img = img;
    this.preds = preds;
    this.geom = geom;
    const nGt = img.gt.length;
    const nK = geom.kept.length;
    const nPred = preds ? preds.scores.length : 0;
    if (this.care.length < nGt) {
      this.care = new Uint8Array(nGt * 2);
      this.order = new Int32Array(nGt * 2);
      this.gtPartner = new Int32Array(nGt * 2);
      this.extra = new Int32Array(nGt * 2);
      this.res.fn = new Int8Array(nGt * 2);
    }
    if (this.role.length < nK) {
      this.role = new Uint8Array(nK * 2);
      this.ign = new Uint8Array(nK * 2);
      this.predPartner = new Int32Array(nK * 2);
      this.res.fp = new Int8Array(nK * 2);
    }
    if (this.isKept.length < nPred) this.isKept = new Uint8Array(nPred * 2);
    this.extra.fill(-2, 0, nGt);
    this.gtRegions.length = 0;
    this.dropRegions.length = 0;
    this.dropBounds = null;
    const im = this.im;
    im.nGt = nGt;
    im.nPred = nK;
    im.care = this.care;
    im.role = this.role;
    im.gtPartner = this.gtPartner;
    im.predPartner = this.predPartner;
    im.gStart = geom.gStart;
    im.pp = geom.pk;
    im.piou = geom.piou;
    im.gArea = geom.gArea;
    im.pArea = geom.kArea;
  }

  /**
   * Classes the image's FNs and FPs in split s at threshold index ti (the official first-fit
   * pairs are recomputed here, exactly as splitCounts does). `swallowedBy` (kept position → the
   * don't-care GT), when the caller has it, names the region behind a `dontcare` miss.
   */
  classify(s: number, ti: number, withs = false, swallowedBy?: Int32Array): ErrorResult {
    const { img, geom, im } = this;
    const bit = 1 << s;
    const nGt = im.nGt;
    const nK = im.nPred;
    const { care, role, ign, gtPartner, predPartner, order } = this;
    let nCareHere = 0;
    for (let g = 0; g < nGt; g++) nCareHere += care[g] = geom.careM[g] & bit ? 1 : 0;
    markIgnored(geom, bit, ign);
    const level = geom.level;
    for (let j = 0; j < nK; j++) role[j] = level[j] <= ti ? ROLE_B : ign[j] ? ROLE_I : ROLE_P;
    if (nCareHere === 0 && !withs) {
      // No care GT here (most category splits of most images): every prediction taking part is background.
      const res = this.res;
      res.fn.fill(-1, 0, nGt);
      for (let j = 0; j < nK; j++) res.fp[j] = role[j] === ROLE_P ? BACKGROUND : -1;
      res.fnWith = res.fpWith = undefined;
      return res;
    }
    gtPartner.fill(-1, 0, nGt);
    predPartner.fill(-1, 0, nK);
    const nCare = careInOrder(img, geom, s, order);
    const { gStart, pk, piou } = geom;
    const thr = this.v.iou;
    for (let c = 0; c < nCare; c++) {
      const g = order[c];
      for (let p = gStart[g]; p < gStart[g + 1]; p++) {
        const k = pk[p];
        if (piou[p] > thr && role[k] === ROLE_P && predPartner[k] < 0) {
          predPartner[k] = g;
          gtPartner[g] = k;
          break;
        }
      }
    }
    if (!withs) this.swallowed = null;
    else if (swallowedBy) this.swallowed = swallowedBy;
    else {
      // The first don't-care GT (split file order) covering > 50%, as the case view names it.
      const sw = (this.swallowed = new Int32Array(nK).fill(-1));
      const ord = img.order?.[s];
      const nOrd = ord ? ord.length : nGt;
      for (let o = 0; o < nOrd; o++) {
        const g = ord ? ord[o] : o;
        if (!(geom.dcM[g] & bit)) continue;
        for (let p = gStart[g]; p < gStart[g + 1]; p++) if (geom.pratio[p] > 0.5 && sw[pk[p]] < 0) sw[pk[p]] = g;
      }
    }
    return classifyImage(im, this.rules, withs, this.res);
  }

  private gtRegion(g: number): Region {
    let r = this.gtRegions[g];
    if (!r) r = this.gtRegions[g] = makeRegion(cast(this.img.gt[g].points, this.v.f32), this.v.multi);
    return r;
  }

  private keptRegion(j: number): Region {
    return this.predRegion(this.geom.kept[j]);
  }

  private predRegion(k: number): Region {
    let r = this.dropRegions[k];
    if (!r) {
      const p = this.preds!;
      r = this.dropRegions[k] = makeRegion(cast(p.coords.subarray(p.start[k], p.start[k + 1]), this.v.f32), this.v.multi);
    }
    return r;
  }

  /** A prediction the pre-filter dropped that would match GT g (IoU > iou), by input index; -1 when none. */
  private extraB(g: number): number {
    const cached = this.extra[g];
    if (cached !== -2) return cached;
    let found = -1;
    const p = this.preds;
    const nPred = p ? p.scores.length : 0;
    if (p && nPred > this.geom.kept.length) {
      const bounds = this.dropBounds ?? this.boundsOfDropped(p);
      // Bounding boxes first (the GT's from its raw points; a float32 cast moves them by far less
      // than any overlap that could reach IoU 0.5): only overlapping candidates cost a region.
      const pts = this.img.gt[g].points;
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (let i = 0; i + 1 < pts.length; i += 2) {
        if (pts[i] < minX) minX = pts[i];
        if (pts[i] > maxX) maxX = pts[i];
        if (pts[i + 1] < minY) minY = pts[i + 1];
        if (pts[i + 1] > maxY) maxY = pts[i + 1];
      }
      const list = this.dropList;
      // When the geometry knows the GT's (repaired) area: IoU ≤ inter / area(g) ≤ area(bbox ∩ bbox) / area(g).
      const gA = this.geom.gArea[g] ?? 0;
      const thr = this.v.iou;
      let gr: Region | null = null;
      for (let i = 0; i < list.length && found < 0; i++) {
        const b = 4 * i;
        if (bounds[b + 2] <= minX || bounds[b] >= maxX || bounds[b + 3] <= minY || bounds[b + 1] >= maxY) continue;
        if (gA > 0) {
          const w = Math.min(bounds[b + 2], maxX) - Math.max(bounds[b], minX);
          const h = Math.min(bounds[b + 3], maxY) - Math.max(bounds[b + 1], minY);
          // A little slack for the float32 cast of the coordinates.
          if ((w * h) / gA <= thr * (1 - 1e-6)) continue;
        }
        gr ??= this.gtRegion(g);
        const r = this.predRegion(list[i]);
        if (regionIoU(gr, r, intersectionArea(gr, r)) > this.v.iou) found = list[i];
      }
    }
    this.extra[g] = found;
    return found;
  }

  private boundsOfDropped(p: LtbPredImage): Float64Array {
    const nPred = p.scores.length;
    const isKept = this.isKept;
    isKept.fill(0, 0, nPred);
    for (const k of this.geom.kept) isKept[k] = 1;
    const list: number[] = [];
    for (let k = 0; k < nPred; k++) if (!isKept[k]) list.push(k);
    const out = new Float64Array(list.length * 4);
    list.forEach((k, i) => {
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (let j = p.start[k]; j + 1 < p.start[k + 1]; j += 2) {
        const x = p.coords[j], y = p.coords[j + 1];
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      out[4 * i] = minX;
      out[4 * i + 1] = minY;
      out[4 * i + 2] = maxX;
      out[4 * i + 3] = maxY;
    });
    this.dropList = list;
    this.dropBounds = out;
    return out;
  }
}

/** One shared instance per variant (buildCase and the scorer are not re-entrant). */
const shared = new WeakMap<Variant, LtbErrors>();
export function ltbErrorsFor(v: Variant): LtbErrors {
  let e = shared.get(v);
  if (!e) shared.set(v, (e = new LtbErrors(v)));
  return e;
}

