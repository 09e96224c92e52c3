import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { ZFileListQuery, isPreviewable } from '../../../../shared/files';
import type { ApiRouter } from '../../http/api-router';
import { abortSignalOf, contextOf } from '../../http/context';
import { ZIdParams, parseOrThrow } from '../../http/validate';
import { AppError } from '../../lib/app-error';
import { fileOwner } from './file-owners';
import { discardUpload, fileUpload } from './file-upload.middleware';
import type { FileRow } from './files.repository';
import type { FilesService } from './files.service';

function contentTypeOf(file: FileRow): string {
  return file.mime_type.startsWith('text/') ? `${file.mime_type}; charset=utf-8` : file.mime_type;
}

/**
 * A download's policy: nothing in it may run or load anything (`default-src 'none'`), and a document opened on
 * its own is sandboxed (a unique origin, no scripts, no forms). A PDF shown in the page (`?inline=1`) is not
 * sandboxed: Firefox's and Safari's PDF viewers do not run in a sandboxed document (it shows nothing; Chromium
 * ignores a PDF's policy and renders it either way — checked in Chromium 156 in an iframe of the app), so it may
 * only be framed by the app itself (`frame-ancestors 'self'`), and its PDF JavaScript runs inside the viewer,
 * never in the page. An image shown inline keeps the sandbox (an `<img>` ignores the policy). Every other type
 * is never inline.
 */
const DOWNLOAD_POLICY = "default-src 'none'; sandbox";
const INLINE_PDF_POLICY = "default-src 'none'; frame-ancestors 'self'";

/** `{ owner_type, owner_id }`: the multipart text fields of `POST /api/files`. */
const ZAttachTarget = z.strictObject({
  owner_type: z
    .string()
    .max(40)
    .regex(/^[a-z][a-z0-9_]*$/),
  owner_id: z.coerce.number().int().positive(),
});

/** `?inline=1` shows an image or a PDF in the page; anything else is always an attachment. */
export const ZDownloadQuery = z.object({ inline: z.enum(['0', '1']).optional() });

function setDisposition(res: Response, file: FileRow, inline: boolean): void {
  res.attachment(file.original_name);
  if (!inline) return;
  const header = String(res.getHeader('Content-Disposition'));
  res.setHeader('Content-Disposition', header.replace(/^attachment/, 'inline'));
}

/**
 * A stored file as a download (`GET /api/files/:id`, and the portal's own files): always an attachment with the
 * client's name sanitised, its detected type, `nosniff` and a sandboxing CSP; `inline` shows an image or a PDF in
 * the page. The file is opened before the headers go out: one that vanished since the check is still a 404.
 */
export async function sendDownload(
  res: Response,
  { file, absolutePath }: { file: FileRow; absolutePath: string },
  inline: boolean,
): Promise<void> {
  const stream = fs.createReadStream(absolutePath);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  const shown = inline && isPreviewable(file.mime_type);
  setDisposition(res, file, shown);
  res.setHeader('Content-Type', contentTypeOf(file));
  res.setHeader('Content-Length', String(file.size_bytes));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader(
    'Content-Security-Policy',
    shown && file.mime_type === 'application/pdf' ? INLINE_PDF_POLICY : DOWNLOAD_POLICY,
  );
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  await pipeline(stream, res);
}

/**
 * Files and storage over HTTP:
 * - `GET /api/files/usage` — storage against the quota (`files.view`);
 * - `GET /api/files` — the media manager (`files.view`) or one owner's files (`owner_type` + `owner_id`, the
 *   owner's view permission), `{ items: FileItem[], total, page, per_page }`;
 * - `POST /api/files` — multipart `file`, `owner_type`, `owner_id`: an attachment to an owner that takes them
 *   (a school), with the owner's attach permission; 201 with the `FileItem`;
 * - `GET /api/files/:id` — a download: always an attachment with the client's name sanitised, its detected type,
 *   `nosniff` and a sandboxing CSP, so nothing uploaded is ever rendered as a page; an image still shows in an
 *   `<img>`. `?inline=1` shows an image or a PDF in the page (the media manager's preview);
 * - `DELETE /api/files/:id` — `files.delete` and the owner's attach permission; 409 while a record uses it.
 */
export function registerFilesRoutes(api: ApiRouter, db: Knex, files: FilesService): void {
  api.add({
    method: 'get',
    path: '/files/usage',
    access: 'staff',
    permission: 'files.view',
    handler: async (_req, res) => {
      res.json(await files.usage());
    },
  });

  api.add({
    method: 'get',
    path: '/files',
    access: 'staff',
    schemas: { query: ZFileListQuery },
    handler: async (req, res) => {
      res.json(await files.list(req.parsed.query, { ...contextOf(req), signal: abortSignalOf(req) }));
    },
  });

  api.add({
    method: 'post',
    path: '/files',
    access: 'staff',
    before: [fileUpload(db, files.storage, { fields: ['owner_type', 'owner_id'] })],
    handler: async (req, res) => {
      const upload = req.upload;
      if (!upload) throw new AppError('validation');
      try {
        const target = parseOrThrow(ZAttachTarget, upload.fields);
        if (!fileOwner(target.owner_type)?.attachable) {
          throw AppError.field('validation', 'owner_type', 'chooseListed');
        }
        const ctx = contextOf(req);
        const file = await files.store(
          upload,
          { ownerType: target.owner_type, ownerId: target.owner_id },
          ctx,
        );
        res.status(201).json(await files.item(file, ctx));
      } finally {
        await discardUpload(upload);
      }
    },
  });

  api.add({
    method: 'get',
    path: '/files/:id',
    access: 'staff',
    schemas: { params: ZIdParams, query: ZDownloadQuery },
    answers: { kind: 'file', types: ['*/*'] },
    handler: async (req, res) => {
      const found = await files.forDownload(req.parsed.params.id, contextOf(req));
      await sendDownload(res, found, req.parsed.query.inline === '1');
    },
  });

  api.add({
    method: 'delete',
    path: '/files/:id',
    access: 'staff',
    permission: 'files.delete',
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      await files.deleteFile(req.parsed.params.id, contextOf(req));
      res.status(204).end();
    },
  });
}
