/** `refract sweep` and `refract fit`: tuning the cost model on labelled repairs (`sweep.ts`, `fit.ts`). */
export { registerSweep } from './sweep.ts';
export { registerFit } from './fit.ts';
export { registerCoverage } from './coverage.ts';
export { registerCalibrate } from './calibrate.ts';
