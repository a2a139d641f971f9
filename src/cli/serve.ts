/** `refract serve`: the HTTP API (src/server/) on a host and port, until SIGTERM or SIGINT. */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parseCatalog } from '../read/catalog.ts';
import { InputError } from '../model/errors.ts';
import type { ServerOptions } from '../server/app.ts';
import { SERVER_DEFAULTS } from '../server/defaults.ts';
import { CATALOG_DEFAULTS, checkCatalogName } from '../server/catalogs.ts';
import { readText } from '../read/files.ts';
import { collect, integer, oneOf, seconds } from '../api/flag-values.ts';

interface ServeFlags {
  host: string;
  port: string;
  token?: string;
  tokenFile?: string;
  bodyTimeout?: string;
  headersTimeout?: string;
  receiveBudget?: string;
  maxConnections?: string;
  maxCatalogs?: string;
  maxCatalogBytes?: string;
  maxOutputDepth?: string;
  workers?: string;
  catalogDir?: string;
  catalog?: string[];
  bodyLimit: string;
  maxInflight: string;
  requestTimeout: string;
  logLevel: string;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Bytes: `1048576`, `512k`, `1m` (binary units). */
export function byteSize(flag: string, value: string): number {
  const m = /^\s*(\d+)\s*([km]?)i?b?\s*$/i.exec(value);
  const n = m
    ? Number(m[1]) * (m[2].toLowerCase() === 'm' ? 1 << 20 : m[2].toLowerCase() === 'k' ? 1 << 10 : 1)
    : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 1 << 30) {
    throw new InputError(
      flag,
      `expected a size in bytes (1 to 1g, e.g. 1048576, 512k, 1m), received ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/** `name=file` → [name, catalog JSON]. */
function catalogFlag(value: string): [string, unknown] {
  const at = value.indexOf('=');
  if (at < 1) throw new InputError('--catalog', `expected name=file, received ${JSON.stringify(value)}`);
  const name = checkCatalogName(value.slice(0, at), '--catalog');
  const file = value.slice(at + 1);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(
      '--catalog',
      `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError('--catalog', `${file} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    parseCatalog(json);
  } catch (error) {
    throw error instanceof InputError ? error.from(file) : error;
  }
  return [name, json];
}

/** `--token-file`: one token per line (one per client); blank lines and `#` comments are skipped. */
function tokenFile(file: string): string[] {
  let text: string;
  try {
    text = readText(file);
  } catch (error) {
    throw new InputError('--token-file', (error as InputError).message);
  }
  const tokens = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const spaced = tokens.findIndex((token) => /\s/.test(token));
  if (spaced !== -1) throw new InputError('--token-file', `${file}: token ${spaced + 1} holds a space`);
  if (tokens.length === 0) throw new InputError('--token-file', `${file} holds no token`);
  return tokens;
}

const optional = <T>(value: string | undefined, read: (value: string) => T): T | undefined =>
  value === undefined ? undefined : read(value);

export function serveOptions(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const token = flags.token ?? env.REFRACT_TOKEN;
  if (token !== undefined && token.trim() === '') throw new InputError('--token', 'must not be empty');
  const ms = (flag: string) => (value: string) => seconds(flag, value) * 1000;
  const count = (flag: string, max: number) => (value: string) => integer(flag, value, 1, max);
  const catalogLimits = {
    maxCatalogs: optional(flags.maxCatalogs, count('--max-catalogs', 1_000_000)),
    maxCatalogBytes: optional(flags.maxCatalogBytes, (v) => byteSize('--max-catalog-bytes', v)),
    maxOutputDepth: optional(flags.maxOutputDepth, count('--max-output-depth', 128)),
  };
  return {
    token,
    tokens: optional(flags.tokenFile, tokenFile),
    bodyTimeoutMs: optional(flags.bodyTimeout, ms('--body-timeout')),
    headersTimeoutMs: optional(flags.headersTimeout, ms('--headers-timeout')),
    receiveBudget: optional(flags.receiveBudget, (v) => byteSize('--receive-budget', v)),
    maxConnections: optional(flags.maxConnections, count('--max-connections', 1_000_000)),
    catalogLimits: Object.fromEntries(Object.entries(catalogLimits).filter(([, v]) => v !== undefined)),
    workers: flags.workers === undefined ? undefined : integer('--workers', flags.workers, 1, 256),
    catalogDir: flags.catalogDir,
    catalogs: Object.fromEntries((flags.catalog ?? []).map(catalogFlag)),
    bodyLimit: byteSize('--body-limit', flags.bodyLimit),
    maxInflight: integer('--max-inflight', flags.maxInflight, 1, 1_000_000),
    requestTimeoutMs: seconds('--request-timeout', flags.requestTimeout) * 1000,
    logLevel: oneOf('--log-level', flags.logLevel, LEVELS),
  };
}

export function registerServe(program: Command): Command {
  return program
    .command('serve')
    .description(
      'serve the HTTP API: /v1/validate, /v1/fix, /v1/compress, /v1/loop, /v1/catalogs, /openapi.json',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 = any free port)', '8080')
    .option('--token <token>', 'bearer token required on every route but /v1/health (or env REFRACT_TOKEN)')
    .option(
      '--token-file <file>',
      'more tokens, one per line: one per client (catalogs belong to their client)',
    )
    .option('--workers <n>', 'solve worker threads (default: number of cores)')
    .option('--catalog-dir <dir>', 'persist registered catalogs here and load them at start-up')
    .option('--catalog <name=file>', 'register a catalog at start-up (repeatable)', collect)
    .option('--body-limit <bytes>', 'largest request body (e.g. 1m, 512k)', String(SERVER_DEFAULTS.bodyLimit))
    .option(
      '--max-inflight <n>',
      'most solve requests running or queued; more get 503',
      String(SERVER_DEFAULTS.maxInflight),
    )
    .option(
      '--request-timeout <seconds>',
      'time limit of one request',
      String(SERVER_DEFAULTS.requestTimeoutMs / 1000),
    )
    .option(
      '--body-timeout <seconds>',
      `time to receive a whole request (default ${SERVER_DEFAULTS.bodyTimeoutMs / 1000})`,
    )
    .option(
      '--headers-timeout <seconds>',
      `time to receive the headers (default ${SERVER_DEFAULTS.headersTimeoutMs / 1000})`,
    )
    .option(
      '--receive-budget <bytes>',
      'bytes of request bodies arriving at once, all requests (default 64m)',
    )
    .option('--max-connections <n>', `open connections (default ${SERVER_DEFAULTS.maxConnections})`)
    .option('--max-catalogs <n>', `registered catalogs (default ${CATALOG_DEFAULTS.maxCatalogs})`)
    .option('--max-catalog-bytes <bytes>', 'bytes of JSON of all registered catalogs (default 64m)')
    .option(
      '--max-output-depth <n>',
      `deepest output path of a catalog (default ${CATALOG_DEFAULTS.maxOutputDepth})`,
    )
    .option('--log-level <level>', LEVELS.join(' | '), 'info')
    .action(async (flags: ServeFlags) => {
      const options = serveOptions(flags);
      const port = integer('--port', flags.port, 0, 65_535);
      // Loaded on use: fastify would add to every command's start-up.
      const { buildServer } = await import('../server/app.ts');
      const app = buildServer(options);
      try {
        await app.listen({ host: flags.host, port });
      } catch (error) {
        await app.close();
        throw listenError(error, flags.host, port);
      }
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) {
          app.log.warn({ signal }, 'second signal: exiting now');
          process.exit(1);
        }
        stopping = true;
        app.log.info({ signal }, 'shutting down: finishing in-flight requests');
        // A request still running after its own time limit is cut off.
        setTimeout(() => process.exit(1), (options.requestTimeoutMs ?? 30_000) + 5_000).unref();
        app.close().then(
          () => {
            app.log.info('stopped');
            process.exit(0);
          },
          (error: unknown) => {
            app.log.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', () => stop('SIGTERM'));
      process.on('SIGINT', () => stop('SIGINT'));
    });
}

/**
 * Why the server could not listen, as the flag to change: the port is taken or not allowed, or the host
 * is not an address of this machine. Anything else is not the user's input and stays as it is.
 */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const at = `${host}:${port}`;
  if (code === 'EADDRINUSE') return new InputError('--port', `${at} is in use`);
  if (code === 'EACCES') return new InputError('--port', `${at}: permission denied (a port below 1024?)`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT')
    return new InputError('--host', `cannot listen on ${host} (${code}): not an address of this machine`);
  return error;
}
