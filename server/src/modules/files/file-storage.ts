import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../lib/app-error';

/**
 * The local disk (files.disk = `local`): everything under the configured `UPLOAD_DIR`. Uploads arrive in
 * `<root>/.tmp` (same file system, so moving one in is a rename) and are kept as `yyyy/mm/<uuid>.<ext>`: the
 * server's name, never the client's.
 */
export interface FileStorage {
  readonly disk: 'local';
  readonly root: string;
  /** where multer streams an upload while it is checked */
  readonly tmpDir: string;
  /** Moves a checked temporary file in; answers its path relative to the root. */
  moveIn(tempPath: string, extension: string): Promise<string>;
  /** The absolute path of a stored file; refuses anything that would leave the root. */
  resolve(relative: string): string;
  exists(relative: string): Promise<boolean>;
  /** Removes a stored file; a missing one is not an error. */
  remove(relative: string): Promise<void>;
  /** Removes a temporary upload (nothing once it has been moved in); only ever inside `tmpDir`. */
  removeTemp(tempPath: string): Promise<void>;
}

export function createLocalStorage(uploadDir: string): FileStorage {
  const root = path.resolve(uploadDir);
  const tmpDir = path.join(root, '.tmp');
  fs.mkdirSync(tmpDir, { recursive: true });

  function resolve(relative: string): string {
    const absolute = path.resolve(root, relative);
    if (!absolute.startsWith(root + path.sep) || absolute.startsWith(tmpDir + path.sep)) {
      throw new AppError('not_found');
    }
    return absolute;
  }

  return {
    disk: 'local',
    root,
    tmpDir,
    async moveIn(tempPath, extension) {
      const now = new Date();
      const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      const relative = `${folder}/${randomUUID()}.${extension}`;
      await fs.promises.mkdir(path.join(root, folder), { recursive: true });
      await fs.promises.rename(tempPath, resolve(relative));
      return relative;
    },
    resolve,
    async exists(relative) {
      try {
        return (await fs.promises.stat(resolve(relative))).isFile();
      } catch {
        return false;
      }
    },
    async remove(relative) {
      await fs.promises.rm(resolve(relative), { force: true });
    },
    async removeTemp(tempPath) {
      const absolute = path.resolve(tempPath);
      if (!absolute.startsWith(tmpDir + path.sep)) return;
      await fs.promises.rm(absolute, { force: true }).catch(() => undefined);
    },
  };
}
