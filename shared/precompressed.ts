/**
 * The built client's text files are stored compressed beside themselves (`app.js` → `app.js.br`, `app.js.gz`) by the
 * build (`client/build/precompress.ts`), and the server sends a browser the compressed file it accepts
 * (`server/src/http/spa.ts`): nothing is compressed while a request waits.
 */

/** The encodings stored beside each file, in the order the server prefers them. */
export const PRECOMPRESSED_ENCODINGS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

export type PrecompressedEncoding = (typeof PRECOMPRESSED_ENCODINGS)[number]['encoding'];

/**
 * Extensions of the files worth compressing: text (scripts, styles, pages, SVG, JSON, source maps) and the font
 * formats that are not compressed already. Images and woff/woff2 fonts are compressed in their own format.
 */
export const COMPRESSIBLE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.map',
  '.txt',
  '.xml',
  '.ico',
  '.ttf',
  '.otf',
  '.eot',
  '.wasm',
]);

/** Whether the file at `path` (a URL path or a file name) is one the build stores compressed. */
export function isCompressible(path: string): boolean {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') && COMPRESSIBLE_EXTENSIONS.has(path.slice(dot).toLowerCase());
}
