import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type/node';
import { imageSizeFromFile } from 'image-size/fromFile';
import type { UploadExtension } from '../../../../shared/files';
import { msg } from '../../../../shared/messages';
import { AppError } from '../../lib/app-error';

/**
 * What an upload is, decided by its content (quality §20): the extension must be on the allow-list, the
 * content must be what the extension says (file-type's magic-number detection; CSV and TXT by reading them
 * as UTF-8 text), and the name may not hide another type (`.php.jpg`, `.pdf.exe`) or carry control bytes.
 */

interface Expected {
  /** file-type's `ext` values that this extension accepts; null: plain text, checked by reading it */
  detected: readonly string[] | null;
  /** what the file is served as */
  mime: string;
}

const EXPECTED: Record<UploadExtension, Expected> = {
  pdf: { detected: ['pdf'], mime: 'application/pdf' },
  jpg: { detected: ['jpg'], mime: 'image/jpeg' },
  jpeg: { detected: ['jpg'], mime: 'image/jpeg' },
  png: { detected: ['png', 'apng'], mime: 'image/png' },
  webp: { detected: ['webp'], mime: 'image/webp' },
  gif: { detected: ['gif'], mime: 'image/gif' },
  // Word 97–2003 and Excel 97–2003 are OLE compound files: file-type names the container, not the program
  doc: { detected: ['cfb'], mime: 'application/msword' },
  xls: { detected: ['cfb'], mime: 'application/vnd.ms-excel' },
  docx: {
    detected: ['docx'],
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  xlsx: { detected: ['xlsx'], mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  zip: { detected: ['zip'], mime: 'application/zip' },
  csv: { detected: null, mime: 'text/csv' },
  txt: { detected: null, mime: 'text/plain' },
};

/** Inner extensions that make a name a disguise (`photo.php.jpg`, `cv.html.pdf`): refused wherever they stand. */
const DANGEROUS = new Set([
  'php',
  'php3',
  'php4',
  'php5',
  'php7',
  'php8',
  'phtml',
  'phar',
  'pht',
  'phps',
  'exe',
  'dll',
  'com',
  'bat',
  'cmd',
  'sh',
  'bash',
  'ps1',
  'psm1',
  'vbs',
  'vbe',
  'js',
  'jse',
  'mjs',
  'cjs',
  'wsf',
  'wsh',
  'msi',
  'msp',
  'scr',
  'pif',
  'cpl',
  'hta',
  'jar',
  'cgi',
  'pl',
  'py',
  'rb',
  'asp',
  'aspx',
  'asa',
  'cer',
  'jsp',
  'jspx',
  'html',
  'htm',
  'xhtml',
  'shtml',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'swf',
  'lnk',
  'reg',
  'apk',
  'app',
  'so',
  'dylib',
  'htaccess',
]);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const TEXT_CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f]/;

/** The extension of a name as the server reads it: after the last dot, lower case; '' when there is none. */
export function extensionOf(name: string): string {
  const base = path.posix.basename(name.replaceAll('\\', '/'));
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/**
 * Refuses a name that is no honest file name: control bytes (NUL …), an extension off `allowed`, or an inner
 * extension of a dangerous type. Returns the extension.
 */
export function checkUploadName(name: string, allowed: readonly UploadExtension[]): UploadExtension {
  if (!name || CONTROL.test(name)) throw AppError.field('validation', 'file', 'fileBadName');
  const base = path.posix.basename(name.replaceAll('\\', '/'));
  const parts = base.toLowerCase().split('.');
  const extension = extensionOf(base);
  if (parts.slice(1, -1).some((part) => DANGEROUS.has(part.trim()))) {
    throw AppError.field('validation', 'file', 'fileBadName');
  }
  if (!(allowed as readonly string[]).includes(extension)) {
    const imagesOnly = allowed.every((e) => EXPECTED[e].mime.startsWith('image/'));
    throw AppError.field('validation', 'file', imagesOnly ? 'fileImageOnly' : 'fileTypeNotAllowed');
  }
  return extension as UploadExtension;
}

/**
 * The client's name as it is kept and offered back on download: the last path segment only (so `../` does
 * nothing), NFC, no control bytes nor characters that file systems or headers choke on, at most 150
 * characters with the extension kept.
 */
export function sanitiseFileName(name: string, fallbackExtension = ''): string {
  const base = path.posix.basename(name.normalize('NFC').replaceAll('\\', '/'));
  let clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (clean.length > 150) {
    const ext = extensionOf(clean);
    const keep = ext ? `.${ext}` : '';
    clean = clean.slice(0, 150 - keep.length) + keep;
  }
  if (!clean || clean.startsWith('.')) clean = `file${fallbackExtension ? `.${fallbackExtension}` : ''}`;
  return clean;
}

/** The content check's answer: the type the file is stored and served as, its hash and size. */
export interface Inspection {
  mimeType: string;
  sha256: string;
  size: number;
}

/** Reads the file once: its SHA-256, and for text types the UTF-8 and CSV checks, without holding it in memory. */
async function readThrough(
  filePath: string,
  extension: UploadExtension,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  const text = EXPECTED[extension].detected === null;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const csv = extension === 'csv' ? csvChecker() : null;
  let size = 0;
  for await (const chunk of fs.createReadStream(filePath, {
    highWaterMark: 64 * 1024,
  }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
    if (!text) continue;
    let decoded: string;
    try {
      decoded = decoder.decode(chunk, { stream: true });
    } catch {
      throw AppError.field('validation', 'file', 'fileNotText');
    }
    if (TEXT_CONTROL.test(decoded)) throw AppError.field('validation', 'file', 'fileNotText');
    csv?.feed(decoded);
  }
  if (text) {
    try {
      decoder.decode();
    } catch {
      throw AppError.field('validation', 'file', 'fileNotText');
    }
    if (csv && !csv.closed()) throw AppError.field('validation', 'file', 'fileCsvQuote');
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * RFC 4180 quoting, read leniently: a quote opens a quoted value only at the start of a field, `""` inside
 * one is a quote, and the file may not end inside a quoted value (the sign of a broken or binary file).
 */
function csvChecker() {
  let inQuotes = false;
  let fieldStart = true;
  let afterClosingQuote = false;
  return {
    feed(text: string) {
      for (const ch of text) {
        if (inQuotes) {
          if (ch === '"') {
            inQuotes = false;
            afterClosingQuote = true;
          }
          continue;
        }
        if (ch === '"' && (fieldStart || afterClosingQuote)) {
          inQuotes = true;
          fieldStart = false;
          afterClosingQuote = false;
        } else if (ch === ',' || ch === ';' || ch === '\t' || ch === '\n' || ch === '\r') {
          fieldStart = true;
          afterClosingQuote = false;
        } else {
          fieldStart = false;
          afterClosingQuote = false;
        }
      }
    },
    closed: () => !inQuotes,
  };
}

/** The most pixels an image may declare (quality §34): 40 megapixels, e.g. 8000 × 5000. */
export const MAX_IMAGE_MEGAPIXELS = 40;

/**
 * Refuses an image whose header declares more than 40 megapixels, before anything decodes it (a small PNG
 * can declare 20000 × 20000, 1.6 GB once decoded). image-size reads the dimensions from the
 * file's first bytes on disk; an image whose header it cannot read is refused too.
 */
async function checkPixels(filePath: string): Promise<void> {
  let size: { width?: number; height?: number };
  try {
    size = await imageSizeFromFile(filePath);
  } catch {
    throw AppError.field('validation', 'file', 'imageUnreadable');
  }
  if ((size.width ?? 0) * (size.height ?? 0) > MAX_IMAGE_MEGAPIXELS * 1_000_000) {
    throw AppError.field('validation', 'file', msg('imageTooLarge', { max: MAX_IMAGE_MEGAPIXELS }));
  }
}

/**
 * Decides whether the stored temporary file is what its extension says. An executable renamed `.pdf`, HTML
 * or SVG named `.png`, a binary named `.txt`: refused with a field message. An image is held to 40
 * megapixels too.
 */
export async function inspectUpload(filePath: string, extension: UploadExtension): Promise<Inspection> {
  const expected = EXPECTED[extension];
  const stat = await fs.promises.stat(filePath);
  if (stat.size === 0) throw AppError.field('validation', 'file', 'fileEmpty');
  const detected = await fileTypeFromFile(filePath);
  if (expected.detected === null) {
    // text has no magic number: anything file-type recognises is a binary in disguise
    if (detected) throw AppError.field('validation', 'file', 'fileContentMismatch');
  } else if (!detected || !expected.detected.includes(detected.ext)) {
    throw AppError.field('validation', 'file', 'fileContentMismatch');
  }
  if (expected.mime.startsWith('image/')) await checkPixels(filePath);
  const read = await readThrough(filePath, extension);
  return { mimeType: expected.mime, sha256: read.sha256, size: read.size };
}
