import zlib from 'node:zlib';

/**
 * Real XLSX packages written byte by byte for the bounds tests (files/bounds.test.ts, resources/import.test.ts):
 * deflated parts whose declared sizes a test may falsify, and a decompression bomb's repeated pieces.
 */

export const MB = 1024 * 1024;

// ---- a small ZIP writer: deflated parts, whose declared sizes a test may falsify ----

export interface Part {
  name: string;
  /** the raw deflate stream */
  data: Buffer;
  /** the unpacked size the headers declare */
  size: number;
  crc: number;
}

export function deflated(name: string, content: string | Buffer): Part {
  const raw = Buffer.isBuffer(content) ? content : Buffer.from(content);
  return { name, data: zlib.deflateRawSync(raw), size: raw.length, crc: zlib.crc32(raw) };
}

/**
 * `head`, then `chunk` `count` times, then `tail`, deflated without ever being held whole: each piece is
 * compressed on its own and ends on a byte boundary (a full flush), so the pieces concatenate into one valid
 * deflate stream, and the one compressed `chunk` is repeated.
 */
export function repeated(name: string, head: string, chunk: Buffer, count: number, tail: string): Part {
  const flush = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH };
  const piece = zlib.deflateRawSync(chunk, flush);
  const data = Buffer.concat([
    zlib.deflateRawSync(Buffer.from(head), flush),
    ...Array<Buffer>(count).fill(piece),
    zlib.deflateRawSync(Buffer.from(tail)),
  ]);
  let crc = zlib.crc32(head);
  for (let i = 0; i < count; i++) crc = zlib.crc32(chunk, crc);
  crc = zlib.crc32(tail, crc);
  return { name, data, size: Buffer.byteLength(head) + count * chunk.length + Buffer.byteLength(tail), crc };
}

export function zipOf(parts: Part[]): Buffer {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(part.crc >>> 0, 14);
    local.writeUInt32LE(part.data.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(part.crc >>> 0, 16);
    entry.writeUInt32LE(part.data.length, 20);
    entry.writeUInt32LE(part.size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    out.push(local, name, part.data);
    central.push(entry, name);
    offset += local.length + name.length + part.data.length;
  }
  const centralSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, ...central, end]);
}

// ---- an XLSX around one sheet ----

export const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_TAIL = '</sheetData></worksheet>';
export const text = (ref: string, value: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;

export function xlsx(sheet: string | Part, extra: Part[] = []): Buffer {
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rels = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return zipOf([
    deflated(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '</Types>',
    ),
    deflated(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId1" Type="${rels}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    deflated(
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${rels}">` +
        '<sheets><sheet name="Holidays" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    deflated(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId1" Type="${rels}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    typeof sheet === 'string' ? deflated('xl/worksheets/sheet1.xml', SHEET_HEAD + sheet + SHEET_TAIL) : sheet,
    ...extra,
  ]);
}

/** A 1 MB row: one inline-string cell of `x`s, which deflate packs about 1000:1. */
export const BIG_ROW = (() => {
  const open = '<row><c t="inlineStr"><is><t>';
  const close = '</t></is></c></row>';
  return Buffer.from(open + 'x'.repeat(MB - open.length - close.length) + close);
})();

/** Runs `send` while sampling the process's resident memory every 2 ms: the peak growth, in MB. */
export async function peakGrowth<T>(send: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const timer = setInterval(sample, 2);
  try {
    const result = await send();
    sample();
    return { result, growthMb: (peak - base) / MB };
  } finally {
    clearInterval(timer);
  }
}
