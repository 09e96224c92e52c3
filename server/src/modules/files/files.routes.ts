import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { ZIdParams } from '../../http/validate';
import type { FileRow } from './files.repository';
import type { FilesService } from './files.service';

function contentTypeOf(file: FileRow): string {
  return file.mime_type.startsWith('text/') ? `${file.mime_type}; charset=utf-8` : file.mime_type;
}

/**
 * `GET /api/files/usage` (storage against the quota) and `GET /api/files/:id` (a download). A download is
 * always an attachment with the client's name sanitised, its detected type, `nosniff` and a sandboxing CSP,
 * so nothing uploaded is ever rendered as a page; an image still shows in an `<img>`.
 */
export function registerFilesRoutes(api: ApiRouter, files: FilesService): void {
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
    path: '/files/:id',
    access: 'staff',
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      const { file, absolutePath } = await files.forDownload(req.parsed.params.id, contextOf(req));
      const stream = fs.createReadStream(absolutePath);
      // open before the headers go out: a file that vanished since the check is still a 404
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      res.attachment(file.original_name);
      res.setHeader('Content-Type', contentTypeOf(file));
      res.setHeader('Content-Length', String(file.size_bytes));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
      await pipeline(stream, res);
    },
  });
}
