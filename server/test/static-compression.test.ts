import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { precompressFiles } from '../../client/build/precompress';
import { assetsRouter, spaRouter } from '../src/http/spa';

/**
 * The built client as the app serves it (issue 25): the build stores brotli and gzip beside each text file
 * (client/build/precompress.ts, run here on a small dist), and the server sends the one the browser accepts —
 * br first, then gzip, else the file as it is — with `Vary: Accept-Encoding`, the file's own type and length, a
 * year's immutable cache for hashed assets and no-cache for the two HTML entries.
 */

// big enough that compression pays (the build writes a sibling only when it is smaller than the file)
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "row ${i}" }`).join(', ')}];\n`;
const style = `.a { color: red; }\n`.repeat(200);
const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${'<div class="x">text</div>'.repeat(100)}</body></html>`;
const FILES: Record<string, string | Buffer> = {
  'index.html': page('back-office'),
  'portal.html': page('portal'),
  'assets/index-AbC123.js': script,
  'assets/only-gzip-AbC123.js': script,
  'assets/plain-AbC123.js': script,
  'assets/index-AbC123.css': style,
  'assets/logo-AbC123.png': Buffer.alloc(2048, 7),
};

let dist: string;
let app: express.Express;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'dist-'));
  mkdirSync(join(dist, 'assets'));
  for (const [name, body] of Object.entries(FILES)) writeFileSync(join(dist, name), body);
  await precompressFiles(dist, Object.keys(FILES));
  // a file the build left without its brotli sibling, and one without either
  rmSync(join(dist, 'assets/only-gzip-AbC123.js.br'));
  rmSync(join(dist, 'assets/plain-AbC123.js.br'));
  rmSync(join(dist, 'assets/plain-AbC123.js.gz'));
  app = express();
  app.use('/assets', assetsRouter(dist));
  app.use(spaRouter(dist));
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const CHROMIUM = 'gzip, deflate, br, zstd';
const size = (name: string) => statSync(join(dist, name)).size;
const get = (path: string, acceptEncoding?: string, host = 'localhost') => {
  const req = request(app).get(path).set('Host', host);
  return acceptEncoding === undefined
    ? req.unset('Accept-Encoding')
    : req.set('Accept-Encoding', acceptEncoding);
};

describe('the build stores compressed siblings', () => {
  it('writes .br and .gz beside each text file, never beside an image', () => {
    for (const name of ['index.html', 'portal.html', 'assets/index-AbC123.js', 'assets/index-AbC123.css']) {
      expect(size(`${name}.br`)).toBeLessThan(size(name));
      expect(size(`${name}.gz`)).toBeLessThan(size(name));
    }
    expect(() => statSync(join(dist, 'assets/logo-AbC123.png.br'))).toThrow();
    expect(() => statSync(join(dist, 'assets/logo-AbC123.png.gz'))).toThrow();
  });
});

describe('compressed static files (issue 25)', () => {
  it('sends brotli to a browser that accepts it, with the type, length and cache of the file', async () => {
    const plain = await get('/assets/index-AbC123.js', undefined).expect(200);
    const res = await get('/assets/index-AbC123.js', CHROMIUM).expect(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBe(size('assets/index-AbC123.js.br'));
    expect(res.text).toBe(script); // decoded by the client: the very file
    expect(res.headers['content-type']).toBe(plain.headers['content-type']);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // one representation, one validator: the brotli file's ETag is not the plain file's
    expect(res.headers.etag).toBeDefined();
    expect(res.headers.etag).not.toBe(plain.headers.etag);
  });

  it('sends gzip when brotli is not accepted, and css with its own type', async () => {
    const res = await get('/assets/index-AbC123.css', 'gzip, deflate').expect(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(Number(res.headers['content-length'])).toBe(size('assets/index-AbC123.css.gz'));
    expect(res.headers['content-type']).toMatch(/^text\/css/);
    expect(res.text).toBe(style);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
  });

  it('honours a refusal (q=0) of brotli', async () => {
    const res = await get('/assets/index-AbC123.js', 'br;q=0, gzip').expect(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it.each([
    ['no Accept-Encoding', undefined],
    ['identity', 'identity'],
    ['an encoding it does not store', 'zstd, compress'],
    ['a malformed header', ';;; q=x, ,'],
    ['gzip and brotli refused', 'br;q=0, gzip;q=0, *;q=0'],
  ])('sends the plain file for %s, still saying it varies', async (_label, acceptEncoding) => {
    const res = await get('/assets/index-AbC123.js', acceptEncoding).expect(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(size('assets/index-AbC123.js'));
    expect(res.text).toBe(script);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('falls back to gzip when the .br is missing, and to the plain file when both are', async () => {
    const gz = await get('/assets/only-gzip-AbC123.js', CHROMIUM).expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(size('assets/only-gzip-AbC123.js.gz'));
    expect(gz.text).toBe(script);

    const plain = await get('/assets/plain-AbC123.js', CHROMIUM).expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^text\/javascript/);
    expect(Number(plain.headers['content-length'])).toBe(size('assets/plain-AbC123.js'));
    expect(plain.text).toBe(script);
  });

  it('keeps a query string and leaves images alone', async () => {
    const res = await get('/assets/index-AbC123.js?v=2', CHROMIUM).expect(200);
    expect(res.headers['content-encoding']).toBe('br');
    const png = await get('/assets/logo-AbC123.png', CHROMIUM).expect(200);
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers.vary).toBeUndefined();
  });

  it('answers HEAD with the headers GET would send and no body', async () => {
    const res = await request(app)
      .head('/assets/index-AbC123.js')
      .set('Accept-Encoding', CHROMIUM)
      .expect(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBe(size('assets/index-AbC123.js.br'));
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.text ?? '').toBe('');
  });

  it('serves a Range of the plain file: ranges never apply to a compressed file', async () => {
    const res = await get('/assets/index-AbC123.js', CHROMIUM).set('Range', 'bytes=0-9').expect(206);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe(`bytes 0-9/${size('assets/index-AbC123.js')}`);
    expect(res.text).toBe(script.slice(0, 10));
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
  });

  it('answers a conditional request for the compressed file with 304', async () => {
    const first = await get('/assets/index-AbC123.js', CHROMIUM).expect(200);
    const again = await get('/assets/index-AbC123.js', CHROMIUM)
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    expect(again.headers.vary).toMatch(/Accept-Encoding/i);
  });

  it('answers a chunk that is not there with a 404, never the HTML entry', async () => {
    // a page of the previous build asking for its chunk after a deploy must not be given HTML to run
    for (const path of ['/assets/gone-Old123.js', '/assets/gone-Old123.css', '/assets/']) {
      const res = await get(path, CHROMIUM);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).not.toContain('<html');
    }
  });

  it('sends a file only the headers a sub-resource needs', async () => {
    const res = await get('/assets/index-AbC123.js', CHROMIUM).expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    const all = Object.entries(res.headers)
      .map(([k, v]) => `${k}: ${String(v)}\r\n`)
      .join('');
    console.log(`an asset's response headers: ${all.length} bytes`);
    expect(all.length).toBeLessThan(500);
  });

  it('never answers a hostile path with a 500 or a file outside the build', async () => {
    for (const path of [
      '/assets/..%2f..%2f..%2fetc%2fpasswd',
      '/assets/%2e%2e/%2e%2e/etc/passwd.js',
      '/assets/index-AbC123.js%00.br',
      '/assets/%E0%A4%A.js',
    ]) {
      const res = await get(path, CHROMIUM);
      expect(res.status).toBeLessThan(500);
      expect(res.text ?? '').not.toContain('root:');
    }
  });
});

describe('the HTML entries (issue 25)', () => {
  it.each([
    ['localhost', 'back-office'],
    ['student.localhost', 'portal'],
  ])('%s answers any address with its entry, compressed and never cached', async (host, title) => {
    for (const path of ['/', '/login', '/calendar/list']) {
      const res = await get(path, CHROMIUM, host).expect(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.text).toBe(page(title));
    }
    const gz = await get('/login', 'gzip', host).expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await get('/login', undefined, host).expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.text).toBe(page(title));
  });

  it('asked for by its own name, an entry is not cached either', async () => {
    const res = await get('/index.html', CHROMIUM).expect(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('says the client is not built when it is not', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'dist-'));
    try {
      const bare = express().use(spaRouter(empty));
      const res = await request(bare).get('/login').set('Accept-Encoding', CHROMIUM).expect(503);
      expect(res.text).toMatch(/npm run build/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
