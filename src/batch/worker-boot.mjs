// Entry of a batch worker thread. Node 20 does not apply a parent's (or `--import tsx`) loader to a
// worker's entry module, so the worker registers tsx itself before loading the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
