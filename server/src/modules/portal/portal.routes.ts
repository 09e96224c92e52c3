import type { Request, RequestHandler } from 'express';
import { IMAGE_EXTENSIONS } from '../../../../shared/files';
import {
  ZDocumentQuery,
  ZPortalChangePassword,
  ZPortalDetails,
  ZPortalEducationCreate,
  ZPortalEducationUpdate,
  ZPortalFamilyCreate,
  ZPortalFamilyUpdate,
  ZPortalLanguage,
  ZSelectApplication,
} from '../../../../shared/schemas/portal';
import type { Method, RouteSpec } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { ZIdParams } from '../../http/validate';
import { AppError } from '../../lib/app-error';
import { sha256 } from '../../lib/crypto';
import { discardUpload, fileUpload, type ReceivedUpload } from '../files/file-upload.middleware';
import { sendDownload, ZDownloadQuery } from '../files/files.routes';
import type { FilesService } from '../files/files.service';
import type { ModuleDeps } from '../module';
import type { PortalAccountService } from './portal-account.service';
import { portalRepository } from './portal.repository';
import type { PortalService } from './portal.service';

export { PORTAL_STUDENT_FIELDS } from './portal-answers';

/** The signed-in student's id (the route's `access: 'student'` made sure there is one). */
function studentIdOf(req: Request): number {
  if (req.auth?.kind !== 'student') throw new AppError('unauthenticated');
  return req.auth.student.id;
}

/** `:id` of a portal route; a malformed one is a record that does not exist. */
function idOf(req: Request): number {
  const parsed = ZIdParams.safeParse(req.params);
  if (!parsed.success) throw new AppError('not_found');
  return parsed.data.id;
}

/**
 * The portal's own data calls (spec §2 "Student portal"; issue 14), on the portal host only (`access: 'student'`: a
 * staff session there, or a student session on the staff host, is no student and answers 401). A student only
 * ever reaches their own records; another student's id answers 404.
 *
 * While `portal_must_change_password` is set (a password staff chose), every route here but `GET /api/student`,
 * the password change and the language answers 403 `portalMustChangePassword` (sign-in, sign-out and the heartbeat
 * are the auth module's and stay open). Once the information is submitted, every write but the password and the
 * language answers 409 `portalLocked` until staff reopen it.
 *
 * - `GET /api/student` — the student's own record (allow-listed); `PUT` the details; `GET /api/student/options`
 *   the forms' option lists; `POST|DELETE|GET /api/student/photo` (multipart `file`, images only);
 *   `POST /api/student/submit`; `PUT /api/student/password`; `PUT /api/student/language`;
 * - `GET|POST /api/family`, `PUT|DELETE /api/family/:id`; the same at `/api/education`;
 * - `GET|POST /api/select-application` (the intakes open today; a choice), `DELETE /api/select-application/:id`;
 * - `GET /api/application`; `GET /api/document?locale=`; `POST|DELETE|GET /api/document/:id/file`.
 */
export function registerPortalRoutes(
  deps: Pick<ModuleDeps, 'api' | 'db'>,
  portal: PortalService,
  account: PortalAccountService,
  files: FilesService,
): void {
  const { api, db } = deps;

  const mustHaveChanged: RequestHandler = async (req, _res, next) => {
    if (await portalRepository.mustChangePassword(db, studentIdOf(req)))
      throw new AppError('forbidden', 'portalMustChangePassword');
    next();
  };

  /** A student route; `open` routes skip the must-change gate. */
  const add = (
    method: Method,
    path: string,
    spec: Omit<RouteSpec, 'method' | 'path' | 'access'>,
    open = false,
  ) =>
    api.add({
      ...spec,
      method,
      path,
      access: 'student',
      before: [...(open ? [] : [mustHaveChanged]), ...(spec.before ?? [])],
    });

  /** An upload route's handler: the upload handed to `work`, its temporary file discarded whatever happens. */
  const withUpload =
    (work: (req: Request, upload: ReceivedUpload) => Promise<unknown>): RequestHandler =>
    async (req, res) => {
      const upload = req.upload;
      if (!upload) throw new AppError('validation');
      try {
        res.json(await work(req, upload));
      } finally {
        await discardUpload(upload);
      }
    };

  add(
    'get',
    '/student',
    {
      handler: async (req, res) => {
        res.json(await portal.student(studentIdOf(req)));
      },
    },
    true,
  );

  add('put', '/student', {
    schemas: { body: ZPortalDetails },
    handler: async (req, res) => {
      res.json(await portal.updateDetails(studentIdOf(req), req.parsed.body, contextOf(req)));
    },
  });

  add('get', '/student/options', {
    handler: async (_req, res) => {
      res.json(await portal.options());
    },
  });

  add('post', '/student/photo', {
    before: [
      async (req, _res, next) => {
        await portal.assertWritable(studentIdOf(req));
        next();
      },
      fileUpload(db, files.storage, { extensions: IMAGE_EXTENSIONS }),
    ],
    handler: withUpload((req, upload) => portal.setPhoto(studentIdOf(req), upload, contextOf(req))),
  });

  add('delete', '/student/photo', {
    handler: async (req, res) => {
      res.json(await portal.removePhoto(studentIdOf(req), contextOf(req)));
    },
  });

  add('get', '/student/photo', {
    schemas: { query: ZDownloadQuery },
    handler: async (req, res) => {
      const ctx = contextOf(req);
      const found = await files.forDownload(await portal.photoFileId(studentIdOf(req)), ctx);
      await sendDownload(res, found, req.parsed.query.inline === '1');
    },
  });

  add('post', '/student/submit', {
    handler: async (req, res) => {
      res.json(await portal.submit(studentIdOf(req), contextOf(req)));
    },
  });

  add(
    'put',
    '/student/password',
    {
      schemas: { body: ZPortalChangePassword },
      handler: async (req, res) => {
        res.json(
          await account.changePassword(
            studentIdOf(req),
            req.parsed.body,
            sha256(req.sessionID),
            contextOf(req),
          ),
        );
      },
    },
    true,
  );

  add(
    'put',
    '/student/language',
    {
      schemas: { body: ZPortalLanguage },
      handler: async (req, res) => {
        await account.setLanguage(studentIdOf(req), req.parsed.body.language, contextOf(req));
        res.json(await portal.student(studentIdOf(req)));
      },
    },
    true,
  );

  for (const [path, child, create, update] of [
    ['/family', 'family', ZPortalFamilyCreate, ZPortalFamilyUpdate],
    ['/education', 'education', ZPortalEducationCreate, ZPortalEducationUpdate],
  ] as const) {
    add('get', path, {
      handler: async (req, res) => {
        res.json(await portal.listChildren(child, studentIdOf(req), contextOf(req)));
      },
    });
    add('post', path, {
      schemas: { body: create },
      handler: async (req, res) => {
        res
          .status(201)
          .json(await portal.createChild(child, studentIdOf(req), req.parsed.body, contextOf(req)));
      },
    });
    add('put', `${path}/:id`, {
      schemas: { params: ZIdParams, body: update },
      handler: async (req, res) => {
        res.json(
          await portal.updateChild(child, studentIdOf(req), idOf(req), req.parsed.body, contextOf(req)),
        );
      },
    });
    add('delete', `${path}/:id`, {
      schemas: { params: ZIdParams },
      handler: async (req, res) => {
        await portal.removeChild(child, studentIdOf(req), idOf(req), contextOf(req));
        res.status(204).end();
      },
    });
  }

  add('get', '/select-application', {
    handler: async (req, res) => {
      res.json(await portal.selectable(studentIdOf(req)));
    },
  });

  add('post', '/select-application', {
    schemas: { body: ZSelectApplication },
    handler: async (req, res) => {
      res.status(201).json(await portal.choose(studentIdOf(req), req.parsed.body, contextOf(req)));
    },
  });

  add('delete', '/select-application/:id', {
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      await portal.withdraw(studentIdOf(req), idOf(req), contextOf(req));
      res.status(204).end();
    },
  });

  add('get', '/application', {
    handler: async (req, res) => {
      res.json(await portal.applications(studentIdOf(req)));
    },
  });

  add('get', '/document', {
    schemas: { query: ZDocumentQuery },
    handler: async (req, res) => {
      res.json(await portal.documents(studentIdOf(req), req.parsed.query.locale ?? contextOf(req).language));
    },
  });

  add('post', '/document/:id/file', {
    before: [
      async (req, _res, next) => {
        await portal.assertUploadable(studentIdOf(req), idOf(req));
        next();
      },
      fileUpload(db, files.storage),
    ],
    schemas: { params: ZIdParams },
    handler: withUpload(async (req, upload) => {
      const ctx = contextOf(req);
      await portal.upload(studentIdOf(req), idOf(req), upload, ctx);
      return portal.document(studentIdOf(req), idOf(req), ctx.language);
    }),
  });

  add('delete', '/document/:id/file', {
    before: [
      async (req, _res, next) => {
        await portal.assertRemovable(studentIdOf(req), idOf(req));
        next();
      },
    ],
    schemas: { params: ZIdParams },
    handler: async (req, res) => {
      const ctx = contextOf(req);
      await portal.removeFile(studentIdOf(req), idOf(req), ctx);
      res.json(await portal.document(studentIdOf(req), idOf(req), ctx.language));
    },
  });

  add('get', '/document/:id/file', {
    schemas: { params: ZIdParams, query: ZDownloadQuery },
    handler: async (req, res) => {
      const id = await portal.documentFileId(studentIdOf(req), idOf(req));
      await sendDownload(res, await files.forDownload(id, contextOf(req)), req.parsed.query.inline === '1');
    },
  });
}
