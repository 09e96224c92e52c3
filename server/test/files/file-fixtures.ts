import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { excel } from '../../src/modules/exports/excel';
import { createTestApp, type TestApp } from '../harness';

/** Real files of each allowed type (and of a few refused ones), made in memory for the upload tests. */

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A 1×1 GIF. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
/** The smallest JPEG (1×1). */
export const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
export const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([26, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(20),
]);
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);
/** An OLE compound file: what Word 97–2003 (.doc) and Excel 97–2003 (.xls) files are. */
export const CFB = (() => {
  const b = Buffer.alloc(4096);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(b);
  return b;
})();
/** A Windows executable's start. */
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510)]);
export const HTML = Buffer.from(
  '<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>',
);
export const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);
export const BARE_SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
export const CSV = Buffer.from('name,city\n"Chan, Tai Man",香港\n"say ""hi""",首爾\n', 'utf8');
export const TXT = Buffer.from('Notes\n學生資料\n', 'utf8');

/** A PNG padded (after its end chunk) to exactly `size` bytes: still detected as a PNG. */
export function pngOfSize(size: number): Buffer {
  const out = Buffer.alloc(size);
  PNG.copy(out);
  return out;
}

/** A ZIP (stored, no compression) of the given entries. */
export function zip(entries: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const fileName = Buffer.from(name);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** A Word document's package (enough for content detection). */
export const DOCX = zip({
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  'word/document.xml': '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>',
});
export const PLAIN_ZIP = zip({ 'readme.txt': 'hello' });

export async function xlsx(): Promise<Buffer> {
  const wb = new (excel().Workbook)();
  wb.addWorksheet('Students').addRow(['name', 'city']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A test app whose uploads go to a temporary directory of its own. */
export async function createFilesTestApp(): Promise<{
  t: TestApp;
  uploadDir: string;
  cleanup(): Promise<void>;
}> {
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sa-uploads-'));
  const t = await createTestApp({ UPLOAD_DIR: uploadDir });
  return {
    t,
    uploadDir,
    async cleanup() {
      await t.close();
      fs.rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

/** Every file under the upload directory (relative paths), the temporary folder included. */
export function filesOnDisk(uploadDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(path.relative(uploadDir, full));
    }
  };
  walk(uploadDir);
  return out.sort();
}

export async function fileRows(t: TestApp): Promise<number> {
  return Number((await t.db('files').count({ n: '*' }).first())?.n);
}
