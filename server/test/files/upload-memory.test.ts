import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, STAFF_HOST, createUser, type TestApp } from '../harness';
import { createFilesTestApp, fileRows, filesOnDisk, pngOfSize } from './file-fixtures';

/**
 * Quality §19: many parallel uploads stay within bounded memory, because multer streams each one to disk
 * (never memory storage). The app listens on a loopback port; 20 uploads of 4.5 MB are streamed to it from
 * a file on disk at once, and the process's memory is sampled meanwhile. The figures are printed; the one
 * assertion is that the growth stays below what holding the uploads in memory would take.
 */

const PARALLEL = 20;
const SIZE = Math.floor(4.5 * 1024 * 1024);
const MB = 1024 * 1024;

let t: TestApp;
let uploadDir: string;
let cleanup: () => Promise<void>;
let server: http.Server;

beforeAll(async () => {
  ({ t, uploadDir, cleanup } = await createFilesTestApp());
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await cleanup();
});

/** One multipart upload whose file part is streamed from `source`; answers the status. */
function streamUpload(port: number, cookie: string, token: string, source: string): Promise<number> {
  const boundary = `----sa${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(source).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/user/profile-photo',
        headers: {
          Host: STAFF_HOST,
          Cookie: `sa_session=${cookie}`,
          'X-CSRF-Token': token,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(length),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = fs.createReadStream(source);
    file.on('error', reject);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

it(`takes ${PARALLEL} parallel uploads of 4.5 MB with bounded memory, streamed to disk`, async () => {
  const user = await createUser(t.db);
  const client = new Client(t.app);
  expect((await client.login(user.email, user.password)).status).toBe(200);
  const cookie = client.cookie();
  expect(cookie).toBeTruthy();
  const source = path.join(uploadDir, '..', `${path.basename(uploadDir)}-source.png`);
  fs.writeFileSync(source, pngOfSize(SIZE));

  const base = process.memoryUsage();
  const peak = { rss: base.rss, heapUsed: base.heapUsed, arrayBuffers: base.arrayBuffers };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
  }, 5);
  let statuses: number[];
  try {
    const { port } = server.address() as AddressInfo;
    statuses = await Promise.all(
      Array.from({ length: PARALLEL }, () => streamUpload(port, cookie!, client.token, source)),
    );
  } finally {
    clearInterval(sampler);
    fs.rmSync(source, { force: true });
  }

  // every upload went through, each replacing the photo before it: one row, one stored file, nothing left over
  expect(statuses).toEqual(Array(PARALLEL).fill(201));
  expect(await fileRows(t)).toBe(1);
  expect(filesOnDisk(uploadDir)).toHaveLength(1);
  const photo = await t.db('users').where({ id: user.id }).first('profile_photo_file_id');
  expect(photo.profile_photo_file_id).not.toBeNull();

  const growth = {
    rss: (peak.rss - base.rss) / MB,
    heapUsed: (peak.heapUsed - base.heapUsed) / MB,
    arrayBuffers: (peak.arrayBuffers - base.arrayBuffers) / MB,
  };
  const total = (PARALLEL * SIZE) / MB;
  console.log(
    `upload memory: ${PARALLEL} parallel uploads × ${(SIZE / MB).toFixed(1)} MB = ${total.toFixed(0)} MB sent; ` +
      `peak growth RSS ${growth.rss.toFixed(1)} MB, heap ${growth.heapUsed.toFixed(1)} MB, ` +
      `array buffers ${growth.arrayBuffers.toFixed(1)} MB`,
  );
  // holding the uploads in memory (multer's memory storage) would need all 90 MB at once, as every upload waits
  // for the storage lock with its bytes in hand — in Buffers, counted under `arrayBuffers`; streamed to disk, at
  // most a few socket and stream buffers per upload are held at a time (14–28 MB seen). The JS heap's peak is mostly garbage not yet collected (it
  // moves by tens of MB with the collector's timing, whatever the storage), so it is printed, not asserted.
  expect(growth.arrayBuffers).toBeLessThan(total * 0.75);
}, 120_000);
