import type { TFunction } from 'i18next';
import { UPLOAD_EXTENSIONS } from '../../../../shared/files';
import { isApiError } from '../../app/api';
import { uploadErrorText } from '../profile/profile-photo-section';

/** The upload control's `accept`: the allowed extensions (`.pdf,.jpg,…`). */
export const UPLOAD_ACCEPT = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',');

/**
 * Why a chosen file is refused before it is sent, in the words the server would use (spec §5: over the
 * upload limit — 5 MB —, or an extension that is not allowed), or null when it may be sent. The server
 * checks again, and checks the content.
 */
export function uploadRefusal(file: Pick<File, 'name' | 'size'>, maxMb: number, t: TFunction): string | null {
  const dot = file.name.lastIndexOf('.');
  const extension = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extension))
    return t('serverMessages.fileTypeNotAllowed');
  if (file.size > maxMb * 1024 * 1024) return t('serverMessages.fileLargerThan', { max: maxMb });
  return null;
}

/**
 * A refused upload in the user's language: the server's catalogued message (the field's, or the answer's —
 * "Storage is full." …); a 413 without one (a proxy's) is still "larger than the limit".
 */
export function uploadFailureText(error: unknown, maxMb: number, t: TFunction): string {
  if (isApiError(error) && error.status === 413 && !error.data?.message_key)
    return t('serverMessages.fileLargerThan', { max: maxMb });
  return uploadErrorText(error, t);
}
