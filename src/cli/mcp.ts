/** `refract mcp`: the MCP server (validate, fix, compress) over standard input/output. */
import type { Command } from 'commander';
import { loadCatalog } from '../read/catalog.ts';
import { readableFile } from '../read/files.ts';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the validate, fix and compress tools over MCP (stdio)')
    .option('-c, --catalog <file>', 'default tool catalog for calls that pass none')
    .action(async (flags: { catalog?: string }) => {
      const catalog = flags.catalog ? loadCatalog(readableFile('--catalog', flags.catalog)) : undefined;
      // Loaded on use: the MCP SDK would add to every command's start-up.
      const { serveStdio } = await import('../mcp/server.ts');
      await serveStdio({ catalog });
    });
}
