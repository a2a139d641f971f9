/**
 * The server of a document's HTTP examples: started in process with the document's own `refract serve`
 * command (its flags and environment, logging off), answered through `inject`. `curl` here understands what
 * the examples use: `-X`, `-H`, `--oauth2-bearer`, `--json`, `-d`/`--data-binary` (`@file` reads a file).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import { registerServe, serveOptions } from '../../src/cli/serve.ts';
import { buildServer } from '../../src/server/app.ts';
import { ROOT, shellWords } from './shell.ts';

const SERVE = /^(?:\$ )?((?:[A-Za-z_]\w*=\S+\s+)*)(?:npx\s+)?refract serve\b(.*)$/m;

export async function startDocServer(text: string): Promise<FastifyInstance> {
  const found = SERVE.exec(text);
  if (!found) throw new Error('curl examples need a `refract serve` command in the same document');
  const env = Object.fromEntries(
    shellWords(found[1]).map((assignment) => assignment.split('=', 2) as [string, string]),
  );
  const program = new Command();
  registerServe(program);
  const serve = program.commands.find((c) => c.name() === 'serve')!;
  serve.parseOptions(shellWords(found[2]));
  const app = buildServer({ ...serveOptions(serve.opts(), env), logLevel: 'silent' });
  await app.ready();
  // Started means ready to answer: every worker has booted, as `/v1/health` then says.
  for (let waited = 0; waited < 60_000; waited += 50) {
    const health = (await app.inject({ method: 'GET', url: '/v1/health' })).json();
    if (health.workers?.ready === health.workers?.size) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return app;
}

function data(value: string): string {
  return value.startsWith('@') ? readFileSync(join(ROOT, value.slice(1)), 'utf8') : value;
}

export async function curl(app: FastifyInstance, args: readonly string[]): Promise<string> {
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const next = () => args[++i];
    if (a === '-X' || a === '--request') method = next();
    else if (a === '-H' || a === '--header') {
      const [name, ...value] = next().split(':');
      headers[name.trim().toLowerCase()] = value.join(':').trim();
    } else if (a === '--oauth2-bearer') headers.authorization = `Bearer ${next()}`;
    else if (a === '--json') {
      body = data(next());
      headers['content-type'] = 'application/json';
      headers.accept = 'application/json';
    } else if (a === '-d' || a === '--data' || a === '--data-binary') body = data(next());
    else if (a === '-s' || a === '--silent') continue;
    else if (a.startsWith('-')) throw new Error(`curl option ${a} is not supported here`);
    else url = a;
  }
  if (url === undefined) throw new Error('curl: no URL');
  const path = url.replace(/^(https?:\/\/)?[^/]+/, '') || '/';
  const response = await app.inject({
    method: (method ?? (body === undefined ? 'GET' : 'POST')) as 'GET',
    url: path,
    headers,
    ...(body === undefined ? {} : { payload: body }),
  });
  return response.body;
}
