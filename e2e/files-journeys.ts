import { deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import {
  answerConfirmed,
  answerOf,
  apiCall,
  catalogMessage,
  confirmPassword,
  signInAdmin,
  until,
  type Lang,
} from './actions';
import { check, outputPath, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * Files and storage in each language: the profile photo uploaded (a PNG made here), shown in its section and
 * in the top bar, downloaded only as an attachment with `nosniff`; an HTML page named `evil.png` refused in
 * words; the photo removed. Then an admin suspends storage on the general settings: the storage banner says
 * so, an upload is refused with the suspended message, and storage is resumed (the server is shared: the
 * photo and the switch are put back whatever happens).
 */

const TEXT = {
  en: {
    choose: 'Choose a photo',
    replace: 'Change photo',
    remove: 'Remove photo',
    none: 'No photo yet.',
    generalTitle: 'General and email settings',
    general: 'General',
    suspend: 'Suspend uploads',
    save: 'Save',
    banner: /^File storage is suspended: no uploads are accepted for now \([\d.,]+ MB of [\d,]+ MB used\)\.$/,
    used: /^Storage used: [\d.,]+ MB of [\d,]+ MB \([\d.,]+ %\)$/,
  },
  zh_HK: {
    choose: '選擇相片',
    replace: '更換相片',
    remove: '移除相片',
    none: '尚未上載相片。',
    generalTitle: '一般及電郵設定',
    general: '一般',
    suspend: '暫停上載',
    save: '儲存',
    banner: /^檔案儲存已暫停，暫時不接受上載（已使用 [\d.,]+ MB，上限 [\d,]+ MB）。$/,
    used: /^已使用儲存空間：[\d.,]+ MB／[\d,]+ MB（[\d.,]+%）$/,
  },
} as const;

// page.waitForFunction runs in the browser; the e2e code is type-checked without DOM types.

// ---------------------------------------------------------------------------------------------------------
// A real PNG, made here: a small gradient, zlib-compressed scanlines with their CRCs.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A `size`×`size` RGB PNG whose colours depend on `seed` (each language uploads a picture of its own). */
export function makePng(size: number, seed: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      row[1 + x * 3] = (x * 255) / size;
      row[2 + x * 3] = (y * 255) / size;
      row[3 + x * 3] = (seed * 97) % 256;
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const EVIL_HTML = Buffer.from(
  '<!DOCTYPE html><html><head><title>x</title></head><body><script>alert(document.cookie)</script></body></html>',
);

// ---------------------------------------------------------------------------------------------------------

const photoSection = (page: Page) => page.getByTestId('profile-photo-section');
const fileInput = (page: Page) => photoSection(page).locator('input[type=file]');

/** The `src` of an antd Avatar's picture, or null while it shows its icon. */
async function avatarSrc(avatar: Locator): Promise<string | null> {
  const img = avatar.locator('img');
  return (await img.count()) ? img.getAttribute('src') : null;
}

async function waitForAvatar(page: Page, avatar: Locator, what: string, expected: string | null) {
  await until(page, what, () => avatarSrc(avatar), expected);
}

async function uploadPhoto(page: Page, name: string, buffer: Buffer, mimeType = 'image/png') {
  return answerOf(page, 'POST', '/api/user/profile-photo', () =>
    fileInput(page).setInputFiles({ name, mimeType, buffer }),
  );
}

/** Removes the admin's photo if one is left (a failed journey must not leave it to the next one). */
async function removeLeftPhoto(page: Page): Promise<void> {
  await apiCall(page, 'DELETE', '/api/user/profile-photo').catch(() => undefined);
}

function photoJourney(main: RunningServer, lang: Lang): Journey {
  const t = TEXT[lang];
  const base = main.staffUrl;
  return {
    name: `files (${lang}): profile photo uploaded, shown in the section and the top bar, downloaded as an attachment with nosniff; HTML named evil.png refused in words; photo removed`,
    async run(page) {
      await signInAdmin(page, base, lang);
      try {
        await page.goto(`${base}/user/profile`);
        const section = photoSection(page);
        await section.getByText(t.none).waitFor();
        const sectionAvatar = page.getByTestId('profile-photo');
        const topBarAvatar = page.getByTestId('user-menu').locator('.ant-avatar');

        // a real PNG: stored, shown in the section and in the top bar from /api/files/<id>
        const png = makePng(48, lang === 'en' ? 1 : 2);
        const stored = await uploadPhoto(page, `photo-${lang}.png`, png);
        check(stored.status() === 201, `the photo is stored: ${stored.status()} ${await stored.text()}`);
        const { file, profile_photo_url: url } = (await stored.json()) as {
          file: { id: number; mime_type: string; size_bytes: number };
          profile_photo_url: string;
        };
        check(url === `/api/files/${file.id}`, `the photo's URL: ${url}`);
        check(file.mime_type === 'image/png' && file.size_bytes === png.length, JSON.stringify(file));
        await waitForAvatar(page, sectionAvatar, 'the photo in the section', url);
        await waitForAvatar(page, topBarAvatar, 'the photo in the top bar', url);
        await section.getByRole('button', { name: t.replace }).waitFor();
        // the address is set before the bytes arrive: the width once the image has loaded (0 until then)
        await until(
          page,
          'the browser decoded the photo (naturalWidth)',
          () =>
            sectionAvatar
              .locator('img')
              .evaluate((img) =>
                (img as unknown as { complete: boolean }).complete
                  ? (img as unknown as { naturalWidth: number }).naturalWidth
                  : 'loading',
              ),
          48,
        );
        await page.screenshot({ path: outputPath(`files-photo-${lang}.png`), fullPage: true });

        // the download: the same bytes, as an attachment of its detected type, never sniffed
        const download = await page.request.get(`${base}${url}`);
        const headers = download.headers();
        check(download.status() === 200, `the download: ${download.status()}`);
        check(headers['content-type'] === 'image/png', `content-type: ${headers['content-type']}`);
        check(
          new RegExp(`^attachment;\\s*filename="?photo-${lang}\\.png"?$`).test(
            headers['content-disposition'] ?? '',
          ),
          `content-disposition: ${headers['content-disposition']}`,
        );
        check(
          headers['x-content-type-options'] === 'nosniff',
          `nosniff: ${headers['x-content-type-options']}`,
        );
        check(Buffer.compare(await download.body(), png) === 0, 'the download holds the uploaded bytes');

        // an HTML page dressed as a PNG: refused, in the interface language, the photo stays
        const refused = await uploadPhoto(page, 'evil.png', EVIL_HTML);
        check(refused.status() === 422, `evil.png refused: ${refused.status()} ${await refused.text()}`);
        const alert = section.getByRole('alert');
        await alert.waitFor();
        const shown = (await alert.innerText()).trim();
        const expected = catalogMessage('fileContentMismatch', lang);
        check(shown === expected, `the refusal in ${lang}: "${shown}", expected "${expected}"`);
        await waitForAvatar(page, sectionAvatar, 'the photo after the refusal', url);
        await page.screenshot({ path: outputPath(`files-evil-png-${lang}.png`), fullPage: true });

        // removed: gone from the section, the top bar and the server
        // (once confirmed: the confirmation's own button)
        await section.getByRole('button', { name: t.remove }).click();
        const removed = await answerOf(page, 'DELETE', '/api/user/profile-photo', () =>
          page.locator('.ant-popconfirm').getByRole('button', { name: t.remove }).click(),
        );
        check(removed.status() === 204, `the photo removed: ${removed.status()}`);
        await section.getByText(t.none).waitFor();
        await waitForAvatar(page, sectionAvatar, 'the section after the removal', null);
        await waitForAvatar(page, topBarAvatar, 'the top bar after the removal', null);
        const gone = await page.request.get(`${base}${url}`);
        check(gone.status() === 404, `the removed photo's download: ${gone.status()}`);
        await page.reload();
        await section.getByText(t.none).waitFor();
        check((await avatarSrc(topBarAvatar)) === null, 'no photo in the top bar after a reload');
      } finally {
        await removeLeftPhoto(page);
      }
    },
  };
}

function suspendedJourney(main: RunningServer, lang: Lang): Journey {
  const t = TEXT[lang];
  const base = main.staffUrl;
  return {
    name: `files (${lang}): an admin suspends storage on the general settings; the banner says so, an upload is refused with the suspended message; storage resumed`,
    async run(page) {
      await signInAdmin(page, base, lang);
      const banner = page.getByTestId('storage-banner');
      try {
        await page.goto(`${base}/settings/general`);
        await page.getByRole('heading', { name: t.generalTitle }).waitFor();
        check((await banner.count()) === 0, 'no storage banner while storage is fine');
        const general = page
          .locator('.ant-card')
          .filter({ has: page.locator('.ant-card-head-title').getByText(t.general, { exact: true }) });
        const usage = general.getByTestId('storage-usage');
        await usage.waitFor();
        const usageText = (await usage.innerText()).trim();
        check(t.used.test(usageText), `the storage used in ${lang}: ${usageText}`);
        check((await usage.locator('.ant-progress').count()) === 1, 'the usage has a progress bar');

        const toggle = page.getByTestId('setting-storage_suspended').getByRole('switch');
        check((await toggle.getAttribute('aria-checked')) === 'false', 'storage is not suspended');
        await page.getByTestId('setting-storage_suspended').getByText(t.suspend, { exact: true }).waitFor();
        await toggle.click();
        // a storage setting: the admin's password is asked first
        const saved = await answerConfirmed(
          page,
          'PUT',
          '/api/settings',
          () => general.getByRole('button', { name: t.save }).click(),
          lang,
        );
        check(saved.status() === 200, `suspended: ${saved.status()} ${await saved.text()}`);
        check(
          ((await saved.json()) as { storage_suspended: boolean }).storage_suspended === true,
          'the save answers storage_suspended: true',
        );

        // the banner appears without a reload, as an error, in the interface language
        await banner.waitFor();
        check((await banner.getAttribute('data-status')) === 'suspended', 'the banner is the suspended one');
        check(
          ((await banner.getAttribute('class')) ?? '').includes('ant-alert-error'),
          'the banner is an error',
        );
        const bannerText = (await banner.innerText()).trim();
        check(t.banner.test(bannerText), `the banner in ${lang}: ${bannerText}`);
        await usage.and(page.locator('[data-status=suspended]')).waitFor();
        await page.screenshot({ path: outputPath(`files-suspended-${lang}.png`), fullPage: true });

        // an upload is refused with the suspended message; the banner stays on other screens
        await page.goto(`${base}/user/profile`);
        await banner.waitFor();
        const refused = await uploadPhoto(page, `photo-${lang}.png`, makePng(16, 3));
        check(
          refused.status() === 422,
          `upload while suspended: ${refused.status()} ${await refused.text()}`,
        );
        const alert = photoSection(page).getByRole('alert');
        await alert.waitFor();
        const shown = (await alert.innerText()).trim();
        const expected = catalogMessage('storageSuspended', lang);
        check(shown === expected, `the refusal in ${lang}: "${shown}", expected "${expected}"`);
        await photoSection(page).getByText(t.none).waitFor();

        // resumed on the settings page: the banner goes
        await page.goto(`${base}/settings/general`);
        await page.getByRole('heading', { name: t.generalTitle }).waitFor();
        check((await toggle.getAttribute('aria-checked')) === 'true', 'the switch shows the suspension');
        await toggle.click();
        const resumed = await answerConfirmed(
          page,
          'PUT',
          '/api/settings',
          () => general.getByRole('button', { name: t.save }).click(),
          lang,
        );
        check(resumed.status() === 200, `resumed: ${resumed.status()} ${await resumed.text()}`);
        await banner.waitFor({ state: 'detached' });
        await page.reload();
        await page.getByRole('heading', { name: t.generalTitle }).waitFor();
        await usage.waitFor();
        check((await banner.count()) === 0, 'no banner after a reload');
        check((await toggle.getAttribute('aria-checked')) === 'false', 'the switch is off after a reload');
      } finally {
        // the other journeys upload on this server
        await confirmPassword(page).catch(() => undefined);
        await apiCall(page, 'PUT', '/api/settings', { storage_suspended: false }).catch(() => undefined);
        await removeLeftPhoto(page);
      }
    },
  };
}

export function filesJourneys(main: RunningServer): Journey[] {
  return (['en', 'zh_HK'] as const).flatMap((lang) => [
    photoJourney(main, lang),
    suspendedJourney(main, lang),
  ]);
}
