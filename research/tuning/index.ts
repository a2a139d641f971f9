/** Tuning the cost model on labelled repairs: weight sweeps and a perceptron fit. */
export * from './dataset.ts';
export * from './evaluate.ts';
export * from './settings.ts';
export * from './sweep.ts';
export * from './heatmap.ts';
export * from './report.ts';
export * from './breakdown.ts';
export * from './charts.ts';
export * from './bootstrap.ts';
export * from './perceptron.ts';
export * from './gold-point.ts';
export * from './split.ts';
export * from './fit.ts';
export * from './fit-report.ts';
export * from './mappings.ts';
export * from './cross-validate.ts';
export * from './coverage.ts';
