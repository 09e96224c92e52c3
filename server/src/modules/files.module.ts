import type { Knex } from 'knex';
import type { ResourceService } from '../resources/resource.service';
import { registerFileFieldRoutes } from './files/file-fields.routes';
import { createFileFieldsService } from './files/file-fields.service';
import { createLocalStorage } from './files/file-storage';
import { registerFilesRoutes } from './files/files.routes';
import { createFilesService, type FilesService } from './files/files.service';
import type { ModuleDeps } from './module';
import { registerProfilePhotoRoutes } from './files/profile-photo.routes';
import { registerStudentFiles } from './students/student-files';

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

/**
 * Files and storage (the media manager's list, attachments, downloads, deletes, usage) and the uploads that
 * belong to accounts (the profile photo).
 */
export function registerFilesModule(deps: ModuleDeps): void {
  const files = filesServiceOf(deps);
  registerFilesRoutes(deps.api, deps.db, files);
  registerProfilePhotoRoutes(deps.api, deps.db, files.storage, files);
}

/**
 * The declared resources' file fields (`POST|DELETE /api/schools/:id/logo`), served with the resources' own
 * services (`registerDeclaredResources` calls it once they are registered), and the owners of the records whose
 * files need those services: students' attachments, applications' files and a checklist row's file with its route.
 */
export function registerDeclaredFileFields(
  deps: ModuleDeps,
  resources: ReadonlyMap<string, ResourceService>,
): void {
  const files = filesServiceOf(deps);
  registerFileFieldRoutes(deps.api, deps.db, files.storage, createFileFieldsService(files), resources);
  registerStudentFiles(deps.api, deps.db, files, resources);
}
