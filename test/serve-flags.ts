/** The flags `refract serve` hands its action when none is given on the command line: its own defaults. */
import { buildProgram } from '../src/cli/main.ts';
import type { serveOptions } from '../src/cli/serve.ts';

type ServeFlags = Parameters<typeof serveOptions>[0];

const serve = buildProgram().commands.find((command) => command.name() === 'serve');
if (!serve) throw new Error('no serve command');

/** `refract serve`'s defaults, on any free port. */
export const SERVE_DEFAULTS: ServeFlags = { ...(serve.opts() as ServeFlags), port: '0' };
