/**
 * JSON bodies: strict UTF-8 (a bad byte is a 400 naming its offset, never a silent U+FFFD), then fastify's
 * own parser (it rejects `__proto__` keys), plus an empty body allowed on DELETE (clients send a JSON
 * content type there too) and the parse error's detail in the 400. `application/json` is the only media
 * type parsed: fastify's built-in `text/plain` parser is removed, so any other type is a 415 rather than a
 * string body refused as "expected object".
 */
import type { FastifyInstance } from 'fastify';
import { InputError } from '../model/errors.ts';
import { decodeUtf8 } from '../read/utf8.ts';
import { HttpProblem } from './errors.ts';

export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // A compressed body is a media type the server does not take (415), not a malformed one (400).
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity')
      return done(
        new HttpProblem(
          415,
          'content-encoding',
          `content-encoding ${encoding} is not supported: send the body uncompressed`,
        ),
        undefined,
      );
    // JSON is UTF-8 (RFC 8259): a body declared in another charset would be read as what it is not.
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset && !/^utf-?8$/i.test(charset))
      return done(
        new HttpProblem(415, 'content-type', `charset ${charset} is not supported: send the body as UTF-8`),
        undefined,
      );
    let text: string;
    try {
      text = decodeUtf8(body as Buffer, 'body');
    } catch (error) {
      return done(error as InputError, undefined);
    }
    if (text === '' && request.method === 'DELETE') return done(null, undefined);
    // fastify's default parser answers through its callback (its type also allows a promise, never returned).
    void parse(request, text, (error: Error | null, value?: unknown) => {
      if ((error as { code?: string } | null)?.code !== 'FST_ERR_CTP_INVALID_JSON_BODY')
        return done(error, value);
      let detail = 'a __proto__ key is not allowed';
      try {
        JSON.parse(text);
      } catch (syntax) {
        detail = (syntax as Error).message;
      }
      done(new InputError('body', `malformed JSON: ${detail}`), undefined);
    });
  });
}
