/**
 * List-export benchmark: fills the areas table with N rows on the embedded SQLite (or on MySQL/MariaDB
 * with TEST_DATABASE_URL), then downloads `GET /api/areas?format=csv|xlsx` through the real app and prints
 * rows, bytes, time and the peak growth of the process's memory while streaming. Prints figures; asserts
 * nothing (quality "Load and scale").
 *
 *   npm run bench:export              (50,000 rows)
 *   npm run bench:export -- 200000
 */
import { toDbDateTime } from '../server/src/lib/clock';
import { createTestApp, signedInAdmin } from '../server/test/harness';

const rows = Number(process.argv[2] ?? 50_000);

async function main(): Promise<void> {
  const t = await createTestApp();
  try {
    const admin = await signedInAdmin(t);
    const now = toDbDateTime();
    for (let i = 0; i < rows; i += 100) {
      const batch = Array.from({ length: Math.min(100, rows - i) }, (_, j) => ({
        name_en: `Area ${i + j}, "quoted"`,
        name_zh: `地區${i + j}`,
        name_ko: `지역${i + j}`,
        sort_order: i + j,
        created_at: now,
        updated_at: now,
      }));
      await t.db('areas').insert(batch);
    }
    for (const format of ['csv', 'xlsx'] as const) {
      global.gc?.();
      const base = process.memoryUsage().rss;
      let peak = base;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const started = process.hrtime.bigint();
      let bytes = 0;
      const res = await admin
        .get(`/api/areas?format=${format}&per_page=1`)
        .buffer(true)
        .parse((stream, done) => {
          stream.on('data', (c: Buffer) => (bytes += c.length));
          stream.on('end', () => done(null, null));
        });
      const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
      clearInterval(sampler);
      console.log(
        `export ${format}: status ${res.status}, ${rows} rows, ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${ms} ms ` +
          `(${Math.round((rows / ms) * 1000)} rows/s), peak RSS growth ${((peak - base) / 1024 / 1024).toFixed(1)} MiB`,
      );
    }
  } finally {
    await t.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
