import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { applicationDocuments } from '../../../../shared/resources/students';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { ZIdParams } from '../../http/validate';
import { AppError } from '../../lib/app-error';
import type { ResourceService } from '../../resources/resource.service';
import type { FileStorage } from '../files/file-storage';
import { addRecordFileRoutes } from '../files/file-fields.routes';
import { fileUpload } from '../files/file-upload.middleware';
import { assertFileAction, type ApplicationDocumentFiles } from './application-document-files.service';

/**
 * A checklist row's file (issue 13): `POST /api/application-documents/:id/file` (multipart `file`, the limits,
 * content checks, quota and suspension of every upload) puts a file into the row — P→U, N→U, U→U replacing it —
 * and `DELETE` there removes it (U→P); any other state answers 409 with `documentCannotUpload` /
 * `documentCannotRemoveFile`. Both need `students.update` and a row the caller may see (404 outside its branch
 * scope, which follows the row's application and student), checked before a byte of the upload is read; both
 * answer 200 with the row as `GET /api/application-documents/:id` does (its `allowed_actions` included).
 */
export function registerApplicationDocumentFileRoutes(
  api: ApiRouter,
  db: Knex,
  storage: FileStorage,
  documentFiles: ApplicationDocumentFiles,
  documents: ResourceService,
): void {
  const path = `${applicationDocuments.path}/:id/file`;
  const permission = `${applicationDocuments.module}.update`;
  const idOf = (params: unknown): number => {
    const parsed = ZIdParams.safeParse(params);
    if (!parsed.success) throw new AppError('not_found');
    return parsed.data.id;
  };
  // a row in a state that takes no file is refused before its upload is received (checked again under the lock)
  const uploadable: RequestHandler = async (req, _res, next) => {
    assertFileAction('upload_file', await documents.mustBeChangeable(idOf(req.params), contextOf(req)));
    next();
  };
  const changeable: RequestHandler = async (req, _res, next) => {
    await documents.mustBeChangeable(idOf(req.params), contextOf(req));
    next();
  };

  addRecordFileRoutes(api, {
    path,
    permission,
    beforeUpload: [uploadable, fileUpload(db, storage)],
    beforeRemove: [changeable],
    put: (id, upload, ctx) => documentFiles.upload(id, upload, ctx),
    remove: (id, ctx) => documentFiles.removeFile(id, ctx),
    answer: (id, ctx) => documents.get(id, ctx),
  });
}
