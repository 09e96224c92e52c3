import type { Knex } from 'knex';
import { createLocalStorage } from './files/file-storage';
import { registerFilesRoutes } from './files/files.routes';
import { createFilesService, type FilesService } from './files/files.service';
import type { ModuleDeps } from './module';
import { registerProfilePhotoRoutes } from './files/profile-photo.routes';

const SERVICES = new WeakMap<Knex, FilesService>();

/**
 * The app's one files service (its database and `UPLOAD_DIR`), for this module's routes and for the modules
 * whose records own files (deleting a user deletes the user's own files).
 */
export function filesServiceOf(deps: Pick<ModuleDeps, 'db' | 'config'>): FilesService {
  let files = SERVICES.get(deps.db);
  if (!files) {
    files = createFilesService(deps.db, createLocalStorage(deps.config.uploadDir));
    SERVICES.set(deps.db, files);
  }
  return files;
}

/** Files and storage (downloads, usage) and the uploads that belong to accounts (the profile photo). */
export function registerFilesModule(deps: ModuleDeps): void {
  const files = filesServiceOf(deps);
  registerFilesRoutes(deps.api, files);
  registerProfilePhotoRoutes(deps.api, deps.db, files.storage, files);
}
