/** The one surface the app, the worker and the CLI import from the core. */
export * from './model';
export * from './report';
export * from './caseExport';
export * from './qa';
export * from './session';
export { datasetFingerprint } from './fingerprint';
export { ADAPTERS, BENCHMARK_IDS, adapterFor } from './benchmarks/registry';
export * from './io/fileSource';
export { forEachLine, readText, readJson, decodeText } from './io/text';
export { boxIoU } from './geometry/box';
export { levenshtein, charDiff, codePointLength } from './text/levenshtein';
export * from './caseTable';
export type { ReportLayout, ReportSection, PlotSpec, LayoutItem, LayoutRows, UnitSelector } from './reportLayout';
export * from './errorClassKinds';
export * from './uncertainty';
