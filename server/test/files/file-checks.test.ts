import express from 'express';
import request from 'supertest';
import { FILE_MESSAGES } from '../../../shared/files';
import { errorHandler } from '../../src/http/error-handler';
import { createLocalStorage } from '../../src/modules/files/file-storage';
import { discardUpload, fileUpload } from '../../src/modules/files/file-upload.middleware';
import { sanitiseFileName } from '../../src/modules/files/file-types';
import type { TestApp } from '../harness';
import {
  BARE_SVG,
  CFB,
  CSV,
  DOCX,
  EXE,
  GIF,
  HTML,
  JPEG,
  PDF,
  PLAIN_ZIP,
  PNG,
  SVG,
  TXT,
  WEBP,
  createFilesTestApp,
  filesOnDisk,
  pngOfSize,
  xlsx,
} from './file-fixtures';

/**
 * Quality §19–20 at the upload middleware: what a file is, is decided by its content; names that hide a
 * type are refused; limits on size and on multipart fields, files and parts. A bare Express app mounts the
 * real middleware on the real settings table and a real temporary upload directory.
 */

let t: TestApp;
let uploadDir: string;
let cleanup: () => Promise<void>;
let app: express.Express;

beforeAll(async () => {
  ({ t, uploadDir, cleanup } = await createFilesTestApp());
  const storage = createLocalStorage(uploadDir);
  app = express();
  const answer: express.RequestHandler = async (req, res) => {
    const upload = req.upload!;
    await discardUpload(upload);
    res.status(201).json({ ...upload, tempPath: undefined });
  };
  app.post('/upload', fileUpload(t.db, storage), answer);
  app.post('/owner-upload', fileUpload(t.db, storage, { fields: ['owner_type', 'owner_id'] }), answer);
  app.use(errorHandler);
});
afterAll(() => cleanup());
afterEach(() => {
  // whatever happened, no temporary file is left behind
  expect(filesOnDisk(uploadDir)).toEqual([]);
});

const send = (name: string, content: Buffer, url = '/upload') =>
  request(app).post(url).attach('file', content, { filename: name, contentType: 'application/octet-stream' });

function refusedWith(res: request.Response, message: string) {
  expect({ status: res.status, file: res.body.errors?.file }).toEqual({ status: 422, file: [message] });
}

describe('accepted: content matches the extension', () => {
  it.each([
    ['report.pdf', PDF, 'application/pdf'],
    ['photo.jpg', JPEG, 'image/jpeg'],
    ['photo.JPEG', JPEG, 'image/jpeg'],
    ['photo.png', PNG, 'image/png'],
    ['photo.webp', WEBP, 'image/webp'],
    ['photo.gif', GIF, 'image/gif'],
    ['letter.doc', CFB, 'application/msword'],
    ['sheet.xls', CFB, 'application/vnd.ms-excel'],
    ['letter.docx', DOCX, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['bundle.zip', PLAIN_ZIP, 'application/zip'],
    ['students.csv', CSV, 'text/csv'],
    ['notes.txt', TXT, 'text/plain'],
  ])('%s', async (name, content, mime) => {
    const res = await send(name, content);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ mimeType: mime, size: content.length, originalName: name });
    expect(res.body.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an xlsx workbook', async () => {
    const res = await send('marks.xlsx', await xlsx());
    expect(res.status).toBe(201);
    expect(res.body.mimeType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  it('records the SHA-256 of what was sent', async () => {
    const { createHash } = await import('node:crypto');
    const res = await send('report.pdf', PDF);
    expect(res.body.sha256).toBe(createHash('sha256').update(PDF).digest('hex'));
  });
});

describe('refused: quality §20', () => {
  it('an executable renamed .pdf', async () => {
    refusedWith(await send('invoice.pdf', EXE), FILE_MESSAGES.contentMismatch);
  });
  it('a .pdf.exe', async () => {
    refusedWith(await send('invoice.pdf.exe', EXE), FILE_MESSAGES.typeNotAllowed);
  });
  it('a .php.jpg, even with a real JPEG inside', async () => {
    refusedWith(await send('shell.php.jpg', JPEG), FILE_MESSAGES.badName);
    refusedWith(await send('.php.jpg', JPEG), FILE_MESSAGES.badName);
    refusedWith(await send('page.HTML.png', PNG), FILE_MESSAGES.badName);
  });
  it('a NUL (or another control byte) in the name', async () => {
    refusedWith(await send('photo.php\u0000.jpg', JPEG), FILE_MESSAGES.badName);
    refusedWith(await send('photo\u0000.png', PNG), FILE_MESSAGES.badName);
    refusedWith(await send('photo\u0007.png', PNG), FILE_MESSAGES.badName);
    // the same NUL percent-encoded in an RFC 5987 name gets past the multipart parser: the name check stops it
    const encoded = await request(app)
      .post('/upload')
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send(
        Buffer.concat([
          Buffer.from(
            '--xyz\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8\'\'photo.php%00.jpg\r\n' +
              'Content-Type: image/jpeg\r\n\r\n',
          ),
          JPEG,
          Buffer.from('\r\n--xyz--\r\n'),
        ]),
      );
    refusedWith(encoded, FILE_MESSAGES.badName);
  });
  it('HTML or SVG dressed as an image', async () => {
    refusedWith(await send('photo.png', HTML), FILE_MESSAGES.contentMismatch);
    refusedWith(await send('photo.jpg', SVG), FILE_MESSAGES.contentMismatch);
    refusedWith(await send('photo.gif', BARE_SVG), FILE_MESSAGES.contentMismatch);
  });
  it('HTML and SVG under their own names, and other types off the allow-list', async () => {
    for (const name of ['page.html', 'page.htm', 'logo.svg', 'run.exe', 'run.sh', 'x.php', 'noextension']) {
      refusedWith(await send(name, TXT), FILE_MESSAGES.typeNotAllowed);
    }
  });
  it('one type renamed as another allowed type', async () => {
    refusedWith(await send('photo.png', JPEG), FILE_MESSAGES.contentMismatch);
    refusedWith(await send('report.pdf', PNG), FILE_MESSAGES.contentMismatch);
    refusedWith(await send('letter.docx', await xlsx()), FILE_MESSAGES.contentMismatch);
    refusedWith(await send('letter.docx', PLAIN_ZIP), FILE_MESSAGES.contentMismatch);
    refusedWith(await send('bundle.zip', DOCX), FILE_MESSAGES.contentMismatch);
  });
  it('CSV and TXT are read: binary, NUL bytes, broken UTF-8, an unclosed quote', async () => {
    refusedWith(await send('students.csv', PNG), FILE_MESSAGES.contentMismatch);
    refusedWith(await send('notes.txt', EXE), FILE_MESSAGES.contentMismatch);
    refusedWith(await send('notes.txt', Buffer.from('abc\u0000def')), FILE_MESSAGES.notText);
    refusedWith(
      await send('students.csv', Buffer.from([0x61, 0x2c, 0xff, 0xfe, 0x0a])),
      FILE_MESSAGES.notText,
    );
    refusedWith(await send('notes.txt', Buffer.from([0x68, 0x69, 0xe9, 0xa6])), FILE_MESSAGES.notText);
    refusedWith(await send('students.csv', Buffer.from('name,city\n"Chan,HK\n')), FILE_MESSAGES.badCsv);
  });
  it('an empty file', async () => {
    refusedWith(await send('notes.txt', Buffer.alloc(0)), FILE_MESSAGES.empty);
  });
});

describe('names', () => {
  it('keeps only the last segment of a name with ../ in it, cleaned', async () => {
    const res = await send('../../etc/..\\my "photo"<1>.png', PNG);
    expect(res.status).toBe(201);
    expect(res.body.originalName).toBe('my photo1.png');
  });
  it('keeps a Chinese name intact', async () => {
    const res = await send('學生相片.png', PNG);
    expect(res.body.originalName).toBe('學生相片.png');
  });
  it('sanitises names for the download header', () => {
    expect(sanitiseFileName('..')).toBe('file');
    expect(sanitiseFileName('a/b/c.pdf')).toBe('c.pdf');
    expect(sanitiseFileName(' ..hidden.txt. ')).toBe('hidden.txt');
    expect(sanitiseFileName(`${'x'.repeat(300)}.pdf`)).toMatch(/^x{146}\.pdf$/);
  });
});

describe('limits: quality §19', () => {
  const MB = 1024 * 1024;
  it('5 MB + 1 byte → 413 with a message, nothing kept; exactly 5 MB is accepted', async () => {
    const over = await send('big.png', pngOfSize(5 * MB + 1));
    expect(over.status).toBe(413);
    expect(over.body.message).toBe('The file is larger than 5 MB.');
    expect(filesOnDisk(uploadDir)).toEqual([]);
    const exact = await send('big.png', pngOfSize(5 * MB));
    expect(exact.status).toBe(201);
    expect(exact.body.size).toBe(5 * MB);
  });
  it('follows the max_upload_mb setting', async () => {
    await t.db('settings').insert({
      key: 'max_upload_mb',
      value: '1',
      created_at: '2026-01-01 00:00:00',
      updated_at: '2026-01-01 00:00:00',
    });
    try {
      expect((await send('big.png', pngOfSize(MB + 1))).status).toBe(413);
      expect((await send('big.png', pngOfSize(MB))).status).toBe(201);
    } finally {
      await t.db('settings').where({ key: 'max_upload_mb' }).delete();
    }
  });
  it('one file only, in the field "file"', async () => {
    const two = await request(app).post('/upload').attach('file', PNG, 'a.png').attach('file', PNG, 'b.png');
    refusedWith(two, FILE_MESSAGES.oneFile);
    const other = await request(app).post('/upload').attach('photo', PNG, 'a.png');
    refusedWith(other, FILE_MESSAGES.oneFile);
  });
  it('no text field unless the route reads it, and then only those', async () => {
    const extra = await request(app).post('/upload').field('is_admin', '1').attach('file', PNG, 'a.png');
    refusedWith(extra, FILE_MESSAGES.oneFile);
    const allowed = await request(app)
      .post('/owner-upload')
      .field('owner_type', 'user')
      .field('owner_id', '1')
      .attach('file', PNG, 'a.png');
    expect(allowed.status).toBe(201);
    expect(allowed.body.fields).toEqual({ owner_type: 'user', owner_id: '1' });
    const tooMany = await request(app)
      .post('/owner-upload')
      .field('owner_type', 'user')
      .field('owner_id', '1')
      .field('branch_id', '2')
      .attach('file', PNG, 'a.png');
    refusedWith(tooMany, FILE_MESSAGES.oneFile);
  });
  it('a request without a file, or not multipart at all', async () => {
    refusedWith(await request(app).post('/upload').field('x', 'y'), FILE_MESSAGES.oneFile);
    refusedWith(await request(app).post('/upload').send({ file: 'x' }), FILE_MESSAGES.missing);
    const broken = await request(app)
      .post('/upload')
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc');
    expect(broken.status).toBe(422);
  });
});
