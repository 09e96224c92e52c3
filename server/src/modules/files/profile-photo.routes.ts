import type { Knex } from 'knex';
import { IMAGE_EXTENSIONS, fileUrl } from '../../../../shared/files';
import type { Trx } from '../../db/knex';
import type { ApiRouter } from '../../http/api-router';
import { contextOf } from '../../http/context';
import { AppError } from '../../lib/app-error';
import { ownAccount, staffOf } from '../profile/own-account';
import { usersRepository } from '../users/users.repository';
import { requireFeature } from '../users/account-settings';
import { discardUpload, fileUpload } from './file-upload.middleware';
import type { FileStorage } from './file-storage';
import type { FilesService } from './files.service';

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
  const currentPhoto = (trx: Trx, userId: number) => usersRepository.lockProfilePhotoId(trx, userId);

  api.add({
    method: 'post',
    path: '/user/profile-photo',
    access: 'staff',
    before: ownAccount([feature, fileUpload(db, storage, { extensions: IMAGE_EXTENSIONS })]),
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
    before: ownAccount([feature]),
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
