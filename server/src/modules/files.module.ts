import { createLocalStorage } from './files/file-storage';
import { registerFilesRoutes } from './files/files.routes';
import { createFilesService } from './files/files.service';
import type { ModuleDeps } from './module';
import { registerProfilePhotoRoutes } from './files/profile-photo.routes';

/** Files and storage (downloads, usage) and the uploads that belong to accounts (the profile photo). */
export function registerFilesModule(deps: ModuleDeps): void {
  const storage = createLocalStorage(deps.config.uploadDir);
  const files = createFilesService(deps.db, storage);
  registerFilesRoutes(deps.api, files);
  registerProfilePhotoRoutes(deps.api, deps.db, storage, files);
}
