import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { IMAGE_EXTENSIONS } from '../../../../shared/files';
import type { ApiRouter } from '../../http/api-router';
import { contextOf, type RequestContext } from '../../http/context';
import { ZIdParams } from '../../http/validate';
import { AppError } from '../../lib/app-error';
import type { ResourceService } from '../../resources/resource.service';
import { declaredFileFields, type FileFieldsService } from './file-fields.service';
import { discardUpload, fileUpload, type ReceivedUpload } from './file-upload.middleware';
import type { FileStorage } from './file-storage';

/**
 * A declared file field's routes, for every resource with one (`schools.logo_file_id`, a grade report's
 * `file_id` at `/api/grade-reports/:id/file`):
 * `POST /api{path}/:id/{segment}` (multipart `file`; images only when the field accepts images) sets it,
 * `DELETE` there clears it; both need `${module}.update` and a record the caller may change (404 outside its
 * branch scope, checked before the upload is read), and answer 200 with the record as `GET /api{path}/:id` does.
 */
export function registerFileFieldRoutes(
  api: ApiRouter,
  db: Knex,
  storage: FileStorage,
  fields: FileFieldsService,
  resources: ReadonlyMap<string, ResourceService>,
): void {
  for (const target of declaredFileFields()) {
    const { decl, field, segment } = target;
    const service = resources.get(decl.name);
    if (!service) throw new Error(`The declared resource ${decl.name} is not registered`);
    const path = `${decl.path}/:id/${segment}`;
    const permission = `${decl.module}.update`;
    const changeable: RequestHandler = async (req, _res, next) => {
      const id = ZIdParams.safeParse(req.params);
      if (!id.success) throw new AppError('not_found');
      await service.mustBeChangeable(id.data.id, contextOf(req));
      next();
    };

    addRecordFileRoutes(api, {
      path,
      permission,
      beforeUpload: [
        changeable,
        fileUpload(db, storage, field.accept === 'image' ? { extensions: IMAGE_EXTENSIONS } : {}),
      ],
      beforeRemove: [changeable],
      put: (id, upload, ctx) => fields.set(target, id, upload, ctx),
      remove: (id, ctx) => fields.clear(target, id, ctx),
      answer: (id, ctx) => service.get(id, ctx),
    });
  }
}

/**
 * The two routes of a record's one file (a declared file field, a checklist row's file): `POST path` (multipart
 * `file`, read by the upload middleware in `beforeUpload`, after the checks that must come before a byte of it is
 * read) puts it with `put`, `DELETE path` takes it away with `remove`; both answer 200 with the record as `answer`
 * reads it. The upload's temporary file is discarded whatever happens.
 */
export function addRecordFileRoutes(
  api: ApiRouter,
  o: {
    path: string;
    permission: string;
    beforeUpload: RequestHandler[];
    beforeRemove: RequestHandler[];
    put: (id: number, upload: ReceivedUpload, ctx: RequestContext) => Promise<unknown>;
    remove: (id: number, ctx: RequestContext) => Promise<unknown>;
    answer: (id: number, ctx: RequestContext) => Promise<unknown>;
  },
): void {
  api.add({
    method: 'post',
    path: o.path,
    access: 'staff',
    permission: o.permission,
    before: o.beforeUpload,
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      const upload = req.upload;
      if (!upload) throw new AppError('validation');
      try {
        const ctx = contextOf(req);
        await o.put(req.parsed.params.id, upload, ctx);
        res.json(await o.answer(req.parsed.params.id, ctx));
      } finally {
        await discardUpload(upload);
      }
    },
  });
  api.add({
    method: 'delete',
    path: o.path,
    access: 'staff',
    permission: o.permission,
    before: o.beforeRemove,
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      const ctx = contextOf(req);
      await o.remove(req.parsed.params.id, ctx);
      res.json(await o.answer(req.parsed.params.id, ctx));
    },
  });
}
