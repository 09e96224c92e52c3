import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { IMAGE_EXTENSIONS, fileUrl } from '../../../../shared/files';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { usersRepository } from '../users/users.repository';
import { requireFeature } from '../users/account-settings';
import { discardUpload, fileUpload } from './file-upload.middleware';
import type { FileStorage } from './file-storage';
import type { FilesService } from './files.service';

function staffOf(req: Request) {
  if (req.auth?.kind !== 'staff') throw new AppError('unauthenticated');
  return req.auth.user;
}

/** The account's own routes belong to a browser session, as the other `/user/…` routes (accounts module). */
const sessionOnly: RequestHandler = (req, _res, next) => {
  if (req.auth?.kind === 'staff' && req.auth.user.api_token_id) {
    throw new AppError('forbidden', 'This action needs a signed-in browser session.');
  }
  next();
};

/**
 * The signed-in staff user's profile photo (`managesProfilePhotos`; 404 when the flag is off):
 * `POST /api/user/profile-photo` (multipart, field `file`, JPG/PNG/WebP/GIF) replaces the photo and deletes
 * the previous file; `DELETE /api/user/profile-photo` removes it.
 */
export function registerProfilePhotoRoutes(
  api: ApiRouter,
  db: Knex,
  storage: FileStorage,
  files: FilesService,
): void {
  const feature = requireFeature(db, 'managesProfilePhotos');
  const currentPhoto = async (trx: Knex | Knex.Transaction, userId: number) => {
    const row = await trx('users').where({ id: userId }).forUpdate().first('profile_photo_file_id');
    return row?.profile_photo_file_id ? Number(row.profile_photo_file_id) : null;
  };

  api.add({
    method: 'post',
    path: '/user/profile-photo',
    access: 'staff',
    before: [sessionOnly, feature, fileUpload(db, storage, { extensions: IMAGE_EXTENSIONS })],
    handler: async (req, res) => {
      const user = staffOf(req);
      const upload = req.upload;
      if (!upload) throw new AppError('validation');
      try {
        const file = await files.store(upload, { ownerType: 'user', ownerId: user.id }, contextOf(req), {
          replaces: (trx) => currentPhoto(trx, user.id),
          attach: (trx, stored) => usersRepository.update(trx, user.id, { profile_photo_file_id: stored.id }),
        });
        res.status(201).json({
          file: {
            id: file.id,
            original_name: file.original_name,
            mime_type: file.mime_type,
            size_bytes: file.size_bytes,
          },
          profile_photo_url: fileUrl(file.id),
        });
      } finally {
        await discardUpload(upload);
      }
    },
  });

  api.add({
    method: 'delete',
    path: '/user/profile-photo',
    access: 'staff',
    before: [sessionOnly, feature],
    handler: async (req, res) => {
      const user = staffOf(req);
      await files.remove(
        contextOf(req),
        (trx) => currentPhoto(trx, user.id),
        (trx) => usersRepository.update(trx, user.id, { profile_photo_file_id: null }),
      );
      res.status(204).end();
    },
  });
}
