/** The catalog parser's worker thread: parses catalog JSON off the main thread (see catalog-parser.ts). */
import { serveJobs } from '../workers/serve.ts';
import { parseReply } from './catalog-parser.ts';

serveJobs(parseReply);
