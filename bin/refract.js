#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so that `npx refract` works on a fresh clone without a build step.
import { register } from 'tsx/esm/api';
register();
await import('./refract.ts');
