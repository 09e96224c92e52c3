import path from 'node:path';
import express, { type Request, type RequestHandler, type Router } from 'express';
import { isCompressible, PRECOMPRESSED_ENCODINGS } from '../../../shared/precompressed';
import { hostKindOf } from './context';

/**
 * Serves the built client: hashed assets for a year, and for every other path the entry of the front end
 * the host asks for (`student.…` → the portal), never cached, so a deploy is picked up at once. Text files go
 * out as the brotli or gzip file the build stored beside them when the browser accepts it (see `precompressed`).
 */
export function spaRouter(distDir: string): Router {
  const router = express.Router();
  const entries = precompressed(
    express.static(distDir, { index: false, cacheControl: false, fallthrough: true }),
  );
  router.use(
    precompressed(
      express.static(distDir, {
        index: false,
        maxAge: '1h',
        // the entries, asked for by name (`file` is the one sent: `index.html.br`), are never cached either
        setHeaders: (res, file) => {
          if (/\.html(\.br|\.gz)?$/.test(file)) res.setHeader('Cache-Control', 'no-cache');
        },
      }),
    ),
  );
  router.get('/{*path}', (req, res, next) => {
    const entry = hostKindOf(req.hostname) === 'student' ? 'portal.html' : 'index.html';
    res.setHeader('Cache-Control', 'no-cache');
    const url = req.url;
    req.url = `/${entry}`;
    entries(req, res, (error?: unknown) => {
      req.url = url;
      if (error) return next(error);
      res.status(503).type('text/plain').send('The web client has not been built yet: run `npm run build`.');
    });
  });
  return router;
}

/**
 * The hashed build files (`/assets/…`), mounted before the request id and helmet: a script, style or font needs
 * none of a document's headers (its CSP, frame and referrer policies are the page's, not the file's), and each of
 * the sign-in page's files would carry ~0.6 KiB of them. What a sub-resource does need stays: `nosniff` and
 * `Cross-Origin-Resource-Policy`. A name that is not there is a 404, never the HTML entry: a browser holding a page
 * of the previous build must not run HTML as its missing chunk.
 */
export function assetsRouter(distDir: string): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    next();
  });
  router.use(
    precompressed(
      express.static(path.join(distDir, 'assets'), {
        immutable: true,
        maxAge: '365d',
        index: false,
        fallthrough: false,
      }),
    ),
  );
  router.use(((err, _req, res, next) => {
    const status = (err as { status?: number }).status;
    if (status !== 404 && status !== 403) return next(err);
    res.status(404).type('text/plain').send('Not found');
  }) as express.ErrorRequestHandler);
  return router;
}

/** The stored encodings this request accepts, in the server's order of preference (br, then gzip). */
function acceptedEncodings(req: Request) {
  return PRECOMPRESSED_ENCODINGS.filter(({ encoding }) => req.acceptsEncodings(encoding) === encoding);
}

/**
 * Wraps express.static so that a compressible file is sent as its stored `.br` or `.gz` sibling when the request
 * accepts that encoding, falling back to the next accepted one and then to the file itself when a sibling is
 * missing. express.static (send) still does the rest — ETag and Last-Modified of the file actually sent, 304s,
 * HEAD, Content-Length, cache headers — and is told the original file's type and the Content-Encoding. A Range
 * request gets ranges of the plain file: byte ranges of a compressed file are no use to a client resuming a
 * download, and browsers never ask for ranges of scripts or styles.
 */
function precompressed(serve: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isCompressible(req.path)) {
      serve(req, res, next);
      return;
    }
    res.vary('Accept-Encoding');
    const candidates = req.headers.range ? [] : acceptedEncodings(req);
    const url = req.url;
    const query = url.indexOf('?') < 0 ? '' : url.slice(url.indexOf('?'));
    const file = url.slice(0, url.length - query.length);
    const attempt = (index: number) => {
      const candidate = candidates[index];
      if (!candidate) {
        serve(req, res, next);
        return;
      }
      req.url = `${file}${candidate.suffix}${query}`;
      res.type(path.extname(file));
      res.setHeader('Content-Encoding', candidate.encoding);
      serve(req, res, (error?: unknown) => {
        // no such sibling (passed on, or a 404 where the folder does not fall through): nothing was sent; undo
        // and try the next
        req.url = url;
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Type');
        if (error && (error as { status?: number }).status !== 404) return next(error);
        attempt(index + 1);
      });
    };
    attempt(0);
  };
}
