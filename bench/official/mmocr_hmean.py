"""Score an LTB dataset folder with MMOCR 1.0.1's own ``HmeanIOUMetric``.

    python bench/official/mmocr_hmean.py --dataset D --pred P [--out F] [--expect report.json]

This is Benchlens's harness around the *installed* official evaluator (nothing of MMOCR is copied
here): for each of the 15 files ``D/anno/mmocr1.x_format/challenging_<split>.json`` it builds an
mmengine ``Evaluator`` holding ``HmeanIOUMetric`` with the defaults of MMOCR 1.0.1's
``configs/textdet/_base_/default_runtime.py`` (``val_evaluator = dict(type='HmeanIOUMetric')``:
match_iou_thr 0.5, ignore_precision_thr 0.5, pred_score_thrs dict(start=0.3, stop=0.9, step=0.1),
strategy 'vanilla'), feeds it one ``TextDetDataSample`` per image the way MMOCR's test loop does
(batch size 1), and calls ``evaluate(len(data_list))``. It prints one JSON object: the metric
keys of Benchlens's report.json (``<split>/precision`` … ``<split>/hmean@0.9``, see
shared/specs/ltb.md) and, under ``official``, what the evaluator itself returned per split.
With ``--expect`` it then compares every metric with a report.json (``==``, all 225 keys) and
exits 1 on any difference — e.g. against shared/reference/ltb/expected-ltbmini-*-mmocr-1.0.1.json
on shared/data/ltb-mini, or against the CLI's own report.json.

How the inputs reach the metric (MMOCR 1.0.1's own dataset and transform modules cannot be
imported without the whole of MMDetection, so these few steps are restated, not imported):
- GT, as ``LoadOCRAnnotations`` + ``PackTextDetInputs`` make it: ``gt_instances.polygons`` =
  ``[np.array(instance['polygon'], dtype=np.float32)]``, ``gt_instances.ignored`` =
  ``mmcv.transforms.to_tensor(np.array(ignore flags, dtype=np.bool_))``; the annotation file is
  read with ``mmengine.load`` as ``BaseDataset`` does; test mode, so no image is filtered out.
- Predictions, as MMOCR's text-detection postprocessors leave them: ``pred_instances.polygons`` =
  the polygons as read, ``pred_instances.scores`` = ``torch.FloatTensor(scores)``. Accepted files:
  the JSON object ``{image: [[x1, y1, …, xn, yn, score], …]}``, the JSON list
  ``[{filename|img_path, boundary_result}]``, MMOCR 1.x inferencer JSONL ``{img_path,
  det_polygons, det_scores}``, and an ICDAR2015 folder of ``res_img_<n>.txt`` (no score = 1.0).
  Images are matched by file name, then by stem; an image with no entry has no predictions.

What the metric does not return — the best threshold, the counts and the don't-care drops — is
observed, not recomputed: ``compute_hmean`` (called once per threshold, in threshold order, with
hits / gt / pred) is wrapped where ``hmean_iou_metric`` looks it up, and the metric instance's
``_filter_preds`` is wrapped to see which kept predictions the don't-care filter dropped. Both
wrappers call the originals and change nothing; the harness checks that the best threshold's
recorded precision / recall / hmean equal (==) what the evaluator returned.

The environment it was checked with (put together by hand outside the repository; nothing here
builds or installs it): Python 3.11.7, numpy 1.26.4 (MMOCR 1.0.1 compares float32 scores with the
float64 thresholds the numpy-1.x way), torch 2.13.0+cpu, shapely 2.1.2, scipy 1.13.1, mmengine
0.10.7, mmcv 2.0.1 built without ops (mmcv-lite), mmocr 1.0.1 from its v1.0.1 tag. One
substitute: MMDetection could not be brought onto the machine, and ``mmocr/__init__.py`` imports
it only to check its version, so the environment has a two-file ``mmdet`` package (its
``__init__.py`` version guard and ``version.py`` saying 3.1.0). Nothing on the metric's path
imports anything else of mmdet; the harness exits with an error, printing no figures, if any
``mmdet.*`` submodule was loaded.
"""
import argparse
import contextlib
import json
import os
import re
import sys

# (report key, accepted file stems) in report order — shared/specs/ltb.md.
SPLITS = [
    ('blurred', ['blurry', 'blurred']),
    ('artistic', ['artistic']),
    ('glass', ['glass']),
    ('single_char', ['single_char', 'single-character']),
    ('distorted', ['distorted']),
    ('inverse', ['inverse']),
    ('delimited', ['delimited']),
    ('dense', ['dense']),
    ('overlapped', ['overlapped']),
    ('occluded', ['occluded']),
    ('low_contrast', ['low_contrast', 'low-contrast']),
    ('complex_bg', ['complex_bg', 'complex-background']),
    ('others', ['others', 'other']),
    ('hard', ['hard']),
    ('norm', ['norm']),
]


def split_files(dataset):
    folder = os.path.join(dataset, 'anno', 'mmocr1.x_format')
    found, missing = [], []
    for key, stems in SPLITS:
        path = next((os.path.join(folder, f'challenging_{s}.json') for s in stems
                     if os.path.isfile(os.path.join(folder, f'challenging_{s}.json'))), None)
        (found if path else missing).append((key, path))
    if missing:
        sys.exit(f'mmocr_hmean: no challenging_<split>.json under {folder} for '
                 + ', '.join(k for k, _ in missing))
    return found


def stem(name):
    base = os.path.basename(name)
    return base.rsplit('.', 1)[0] if '.' in base else base


def read_predictions(path):
    """{image file name or stem: (polygons, scores)} from any accepted prediction form."""
    preds = {}

    def add(name, polys, scores):
        entry = preds.setdefault(os.path.basename(name), ([], []))
        entry[0].extend(polys)
        entry[1].extend(scores)

    if os.path.isdir(path):
        for f in sorted(os.listdir(path)):
            m = re.fullmatch(r'res_(.+)\.txt', f)
            if not m:
                continue
            polys, scores = [], []
            with open(os.path.join(path, f), encoding='utf-8-sig') as fh:
                for line in fh:
                    nums = [float(v) for v in line.strip().split(',') if v.strip()]
                    if len(nums) < 8:
                        continue
                    polys.append(nums[:8])
                    scores.append(nums[8] if len(nums) > 8 else 1.0)
            add(m.group(1), polys, scores)
        return preds
    with open(path, encoding='utf-8') as fh:
        text = fh.read()
    if path.endswith('.jsonl'):
        for line in text.splitlines():
            if line.strip():
                row = json.loads(line)
                add(row['img_path'], row['det_polygons'], row['det_scores'])
        return preds
    data = json.loads(text)
    if isinstance(data, dict):
        for name, rows in data.items():
            add(name, [r[:-1] for r in rows], [r[-1] for r in rows])
    else:
        for row in data:
            rows = row['boundary_result']
            add(row.get('filename') or row['img_path'], [r[:-1] for r in rows], [r[-1] for r in rows])
    return preds


def lookup(preds, by_stem, img_path):
    name = os.path.basename(img_path)
    if name in preds:
        return preds[name]
    return by_stem.get(stem(name), ([], []))


class Observer:
    """Records what HmeanIOUMetric passes to compute_hmean and what _filter_preds drops."""

    def __init__(self, hm_module, metric):
        self.calls = []  # (hits, gt, pred, (recall, precision, hmean)) per threshold
        self.dropped_scores = []  # float32 score arrays of predictions the don't-care filter dropped
        original_compute = hm_module.compute_hmean
        original_filter = metric._filter_preds
        min_thr = metric.pred_score_thrs.min()

        def compute_hmean(accum_hit_recall, accum_hit_prec, gt_num, pred_num):
            out = original_compute(accum_hit_recall, accum_hit_prec, gt_num, pred_num)
            self.calls.append((accum_hit_recall, gt_num, pred_num, out))
            return out

        def filter_preds(pred_polys, gt_polys, pred_scores, gt_ignore_flags):
            flags = original_filter(pred_polys, gt_polys, pred_scores, gt_ignore_flags)
            self.dropped_scores.append(pred_scores[flags & ~(pred_scores < min_thr)])
            return flags

        self._restore = lambda: setattr(hm_module, 'compute_hmean', original_compute)
        hm_module.compute_hmean = compute_hmean
        metric._filter_preds = filter_preds

    def close(self):
        self._restore()


def score_split(path, preds, by_stem, modules):
    np, torch, load, to_tensor, Evaluator, InstanceData, HmeanIOUMetric, hm, TextDetDataSample = modules
    metric = HmeanIOUMetric()  # the defaults = MMOCR 1.0.1's textdet val/test evaluator
    evaluator = Evaluator(metric)
    observer = Observer(hm, metric)
    try:
        data_list = load(path)['data_list']
        for info in data_list:
            instances = info['instances']
            gt = InstanceData()
            gt.polygons = [np.array(i['polygon'], dtype=np.float32) for i in instances]
            gt.ignored = to_tensor(np.array([i['ignore'] for i in instances], dtype=np.bool_))
            polys, scores = lookup(preds, by_stem, info['img_path'])
            pred = InstanceData()
            pred.polygons = polys
            pred.scores = torch.FloatTensor(scores)
            sample = TextDetDataSample()
            sample.set_metainfo(dict(img_path=info['img_path']))
            sample.gt_instances = gt
            sample.pred_instances = pred
            evaluator.process(data_samples=[sample], data_batch=None)
        official = evaluator.evaluate(len(data_list))
    finally:
        observer.close()
    thrs = metric.pred_score_thrs
    calls = observer.calls
    if len(calls) != len(thrs):
        sys.exit(f'mmocr_hmean: saw {len(calls)} compute_hmean calls for {len(thrs)} thresholds')
    best = 0
    for i, (_, _, _, (_, _, h)) in enumerate(calls):
        if h > calls[best][3][2]:
            best = i
    hits, gt_num, pred_num, (recall, precision, hmean) = calls[best]
    prefix = HmeanIOUMetric.default_prefix
    if (official[f'{prefix}/precision'], official[f'{prefix}/recall'], official[f'{prefix}/hmean']) != (
            precision, recall, hmean):
        sys.exit(f'mmocr_hmean: {path}: observed best threshold does not reproduce {official}')
    dropped = np.concatenate(observer.dropped_scores) if observer.dropped_scores else np.zeros(0, np.float32)
    row = dict(precision=precision, recall=recall, hmean=hmean, threshold=float(thrs[best]),
               hits=hits, gt=gt_num, pred=pred_num,
               ignored=int(np.sum(~(dropped < thrs[best]))))  # the metric's own comparison
    for t, (_, _, _, (_, _, h)) in zip(thrs, calls):
        row[f'hmean@{t:.1f}'] = h
    return row, official


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--dataset', required=True, help='LTB folder holding anno/mmocr1.x_format/')
    ap.add_argument('--pred', required=True, help='predictions (JSON object/list, JSONL, or res_img_*.txt folder)')
    ap.add_argument('--out', help='also write the JSON here')
    ap.add_argument('--expect', help='a report.json (Benchlens\'s, or a shared/reference expected-*.json): '
                    'after scoring, compare every metric with ==, exit 1 on any difference')
    ap.add_argument('--model', help='the model in --expect to compare with (default: its only one)')
    args = ap.parse_args()
    files = split_files(args.dataset)
    preds = read_predictions(args.pred)
    by_stem = {}
    for name, entry in preds.items():
        by_stem.setdefault(stem(name), entry)

    # MMLogger writes to the stdout it sees when first created: keep stdout for the JSON.
    with contextlib.redirect_stdout(sys.stderr):
        import numpy as np
        import torch
        from mmcv.transforms import to_tensor
        from mmengine.evaluator import Evaluator
        from mmengine.fileio import load
        from mmengine.logging import MMLogger
        from mmengine.structures import InstanceData
        import mmocr
        import mmocr.evaluation.metrics.hmean_iou_metric as hm
        from mmocr.evaluation import HmeanIOUMetric
        from mmocr.structures import TextDetDataSample

        MMLogger.get_instance('mmocr_hmean', log_level='INFO')
        modules = (np, torch, load, to_tensor, Evaluator, InstanceData, HmeanIOUMetric, hm, TextDetDataSample)
        metrics, official = {}, {}
        for key, path in files:
            row, off = score_split(path, preds, by_stem, modules)
            metrics.update({f'{key}/{k}': v for k, v in row.items()})
            official[key] = off
    stray = sorted(m for m in sys.modules if m.startswith('mmdet.') and m != 'mmdet.version')
    if stray:
        sys.exit(f'mmocr_hmean: mmdet submodules were imported ({", ".join(stray)}); '
                 'the version-only mmdet substitute does not cover them')
    import mmcv
    import mmdet
    import mmengine
    import shapely
    report = dict(
        evaluator='mmocr.evaluation.HmeanIOUMetric (defaults), one mmengine Evaluator per split file',
        versions=dict(mmocr=mmocr.__version__, mmengine=mmengine.__version__, mmcv=mmcv.__version__,
                      mmdet=mmdet.__version__ + ' (version-guard substitute)', torch=torch.__version__,
                      numpy=np.__version__, shapely=shapely.__version__, python=sys.version.split()[0]),
        metrics=metrics, official=official)
    text = json.dumps(report, indent=1)
    if args.out:
        with open(args.out, 'w', encoding='utf-8') as fh:
            fh.write(text + '\n')
    print(text)
    if args.expect:
        sys.exit(compare(metrics, args.expect, args.model))


def compare(metrics, expect_path, model):
    """0 when every key of both metric maps is present in both and equal (==), else 1."""
    with open(expect_path, encoding='utf-8') as fh:
        models = json.load(fh)['models']
    if model is None and len(models) != 1:
        sys.exit(f'mmocr_hmean: {expect_path} has {len(models)} models; name one with --model')
    expected = models[model or next(iter(models))]['metrics']
    keys = sorted(set(metrics) | set(expected))
    unequal = [k for k in keys if k not in metrics or k not in expected or metrics[k] != expected[k]]
    splits = len({k.split('/')[0] for k in keys})
    print(f'mmocr_hmean: {len(keys) - len(unequal)} of {len(keys)} metric values ({splits} splits) '
          f'equal {expect_path}', file=sys.stderr)
    for k in unequal:
        print(f'  {k}: official {metrics.get(k)!r}, expected {expected.get(k)!r}', file=sys.stderr)
    return 1 if unequal else 0


if __name__ == '__main__':
    main()
