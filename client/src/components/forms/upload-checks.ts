import type { TFunction } from 'i18next';
import { IMAGE_EXTENSIONS, UPLOAD_EXTENSIONS } from '../../../../shared/files';
import { isApiError } from '../../app/api';
import { errorSummary, messageText } from './server-errors';

/**
 * The client's checks of a chosen file before it is sent, and the words of a refused upload: one copy for every
 * upload control (a profile photo, a file field such as a school's logo, an owner's attachments, the media
 * manager). The server checks again, and checks the content.
 */

/** What an upload control takes: any allowed file, or a picture only (a photo, a logo). */
export type UploadKind = 'any' | 'image';

export function uploadExtensions(kind: UploadKind = 'any'): readonly string[] {
  return kind === 'image' ? IMAGE_EXTENSIONS : UPLOAD_EXTENSIONS;
}

/** The upload control's `accept`: the allowed extensions (`.pdf,.jpg,…`). */
export function uploadAccept(kind: UploadKind = 'any'): string {
  return uploadExtensions(kind)
    .map((e) => `.${e}`)
    .join(',');
}

/**
 * Why a chosen file is refused before it is sent, in the words the server would use (spec §5: an extension that
 * is not allowed, or over the upload limit — 5 MB), or null when it may be sent.
 */
export function uploadRefusal(
  file: Pick<File, 'name' | 'size'>,
  maxMb: number,
  t: TFunction,
  kind: UploadKind = 'any',
): string | null {
  const dot = file.name.lastIndexOf('.');
  const extension = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  if (!uploadExtensions(kind).includes(extension))
    return t(kind === 'image' ? 'serverMessages.fileImageOnly' : 'serverMessages.fileTypeNotAllowed');
  if (file.size > maxMb * 1024 * 1024) return t('serverMessages.fileLargerThan', { max: maxMb });
  return null;
}

/** What went wrong with an upload, in the user's language (the server's messages are catalogued). */
export function uploadErrorText(error: unknown, t: TFunction): string {
  const ref = isApiError(error) ? error.data?.error_keys?.file?.[0] : undefined;
  return ref ? messageText(ref, t) : errorSummary(error, t);
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
