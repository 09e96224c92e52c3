import { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { AppError } from '../../lib/app-error';
import { msg } from '../../../../shared/messages';

const MB = 1024 * 1024;

/**
 * What an imported spreadsheet may hold (quality §34), checked before any of it is parsed: an XLSX is a ZIP,
 * and 2 MB of ZIP can unpack to gigabytes (a "decompression bomb").
 */
export const SHEET_BOUNDS = {
  /** every part of the workbook together, unpacked: as its central directory declares it and as it inflates */
  maxUnpackedBytes: 50 * MB,
  /** unpacked : packed, for one part and for the whole file (real workbooks stay far below; bombs reach 1000) */
  maxRatio: 100,
  /** parts (and files) smaller than this are not held to the ratio: a small XML part can compress very well */
  ratioGraceBytes: 100 * 1024,
  /** parts in the ZIP */
  maxEntries: 10_000,
  /** rows of the sheet read, header and empty rows included */
  maxRows: 20_000,
  /** cells of the sheet read, counted as each row's width (the blanks before its last cell included) */
  maxCells: 1_000_000,
} as const;

export const sheetTooLarge = () =>
  AppError.field('validation', 'file', msg('sheetTooLarge', { max: SHEET_BOUNDS.maxUnpackedBytes / MB }));
export const sheetCompressed = () => AppError.field('validation', 'file', 'sheetCompression');
export const sheetTooManyRows = () =>
  AppError.field('validation', 'file', msg('fileMaxRows', { max: SHEET_BOUNDS.maxRows }));
export const sheetTooManyCells = () =>
  AppError.field('validation', 'file', msg('sheetMaxCells', { max: SHEET_BOUNDS.maxCells }));
const notXlsx = () => AppError.field('validation', 'file', 'fileNotXlsx');

/** The checked parts of an XLSX, still packed: nothing of it has been inflated yet. */
export interface XlsxPackage {
  has(name: string): boolean;
  /** the part names, as the central directory lists them */
  names(): string[];
  /**
   * The given parts, in that order (each under the name `as`, or its own), as one plain ZIP stream without
   * compression, which is what exceljs's streaming reader reads: every part is inflated here, its bytes
   * counted as they come, and the stream fails (with the bound's 422) as soon as a part inflates to more than
   * its central directory declared, so a part whose header lies is stopped after the size it admitted to.
   * Parts not asked for are never inflated; bytes outside the central directory's parts are never read.
   */
  stream(parts: { name: string; as?: string }[]): Readable;
  close(): void;
}

/**
 * Opens an XLSX by its central directory (yauzl, which reads the directory without inflating anything) and
 * refuses it, before any part is read, when the parts declare more than 50 MB unpacked, when one part or the
 * whole file is compressed more than 100:1, when it holds more than 10,000 parts, or when it is no ZIP we can
 * read (encrypted, an unknown compression method, a part named twice or outside the package).
 */
export async function openXlsx(filePath: string): Promise<XlsxPackage> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(filePath, {
      lazyEntries: true,
      autoClose: false,
      // the sizes are checked here, as the bytes come (stream below), with the answers of quality §34
      validateEntrySizes: false,
    });
  } catch {
    throw notXlsx();
  }
  const entries = new Map<string, Entry>();
  try {
    if (zip.entryCount > SHEET_BOUNDS.maxEntries) throw notXlsx();
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      if (entry.isEncrypted() || !entry.canDecodeFileData() || entries.has(entry.fileName)) throw notXlsx();
      if (
        entry.uncompressedSize > SHEET_BOUNDS.ratioGraceBytes &&
        entry.uncompressedSize > SHEET_BOUNDS.maxRatio * entry.compressedSize
      ) {
        throw sheetCompressed();
      }
      declared += entry.uncompressedSize;
      if (declared > SHEET_BOUNDS.maxUnpackedBytes) throw sheetTooLarge();
      entries.set(entry.fileName, entry);
    }
    // against the file's own size: parts may overlap, or declare packed sizes they do not have
    if (declared > SHEET_BOUNDS.ratioGraceBytes && declared > SHEET_BOUNDS.maxRatio * zip.fileSize) {
      throw sheetCompressed();
    }
  } catch (err) {
    zip.close();
    throw err instanceof AppError ? err : notXlsx();
  }

  return {
    has: (name) => entries.has(name),
    names: () => [...entries.keys()],
    stream: (parts) => Readable.from(storedZip(zip, entries, parts), { objectMode: false }),
    close: () => zip.close(),
  };
}

async function* storedZip(
  zip: ZipFile,
  entries: Map<string, Entry>,
  parts: { name: string; as?: string }[],
): AsyncGenerator<Buffer> {
  for (const part of parts) {
    const entry = entries.get(part.name);
    if (!entry) throw notXlsx();
    const declared = entry.uncompressedSize;
    yield localHeader(part.as ?? part.name, declared, entry.crc32);
    let actual = 0;
    let data: Readable;
    try {
      data = await zip.openReadStreamPromise(entry);
    } catch {
      throw notXlsx();
    }
    try {
      for await (const chunk of data as AsyncIterable<Buffer>) {
        actual += chunk.length;
        // more than it declared: a part hiding its real size. Held to what it declared, every part stays
        // within the size and ratio checked above, and all of them within 50 MB.
        if (actual > declared) throw sheetCompressed();
        yield chunk;
      }
    } catch (err) {
      throw err instanceof AppError ? err : notXlsx();
    } finally {
      data.destroy();
    }
    if (actual !== declared) throw notXlsx();
  }
  yield endOfCentralDirectory();
}

/** A ZIP local file header for a part stored without compression, `size` bytes long. */
function localHeader(name: string, size: number, crc32: number): Buffer {
  const fileName = Buffer.from(name, 'utf8');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(10, 4); // version needed: 1.0, stored
  header.writeUInt16LE(0x0800, 6); // the name is UTF-8
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt32LE(crc32 >>> 0, 14);
  header.writeUInt32LE(size, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(fileName.length, 26);
  return Buffer.concat([header, fileName]);
}

/** An empty end-of-central-directory record: where a streaming ZIP reader stops. */
function endOfCentralDirectory(): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  return end;
}
