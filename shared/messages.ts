import { z } from 'zod';
import { MESSAGES } from './errors';

/**
 * Every message the server may put in an answer (field errors, business rules, notices), in English. The
 * client shows each in the user's language from `serverMessages.<key>` (client/src/locales/messages), matching
 * the English text exactly or, for a template, by its `{{placeholders}}`; a placeholder named `message` holds
 * another message of this catalog and is translated in turn. The spec's own messages are in `MESSAGES`
 * (shared/errors.ts). A test reads the server's and the shared schemas' sources and fails on a message that
 * is not here.
 */
export const FIELD_MESSAGES = {
  // ---- generic field checks (zod issues, see zodMessage below) ----
  required: 'This field is required.',
  notAllowed: 'This field is not allowed.',
  invalidValue: 'This value is not valid.',
  tooLong: 'May not be longer than {{max}} characters.',
  tooShort: 'Must be at least {{min}} characters.',
  tooLarge: 'May not be greater than {{max}}.',
  tooSmall: 'Must be at least {{min}}.',
  tooManyItems: 'Choose at most {{max}}.',
  tooFewItems: 'Choose at least {{min}}.',
  notANumber: 'Must be a number.',
  notAWholeNumber: 'Must be a whole number.',
  chooseListed: 'Choose one of the listed values.',
  invalidDate: 'Must be a date (YYYY-MM-DD).',
  invalidUrl: 'Must be a web address (https://…).',
  invalidJson: 'The request body is not valid JSON.',
  lettersDigits: 'Letters and digits only.',
  currencyCode: 'Must be a three-letter currency code (ISO 4217).',
  optionCode: 'Use up to 40 letters, digits, "-", "_", "." or "+", starting with a letter or digit.',
  unknownPermission: 'Unknown permission key.',
  sortUnsupported: 'Sorting by "{{column}}" is not supported.',
  idTwice: 'An id is given twice.',
  everyEntryOnce: 'Give every entry of this list exactly once.',

  // ---- accounts ----
  passwordMin: 'The password must be at least 8 characters.',
  passwordUpper: 'The password must contain at least one uppercase letter.',
  passwordLower: 'The password must contain at least one lowercase letter.',
  passwordDigit: 'The password must contain at least one number.',
  passwordBytes: 'The password may not be longer than 72 bytes.',
  passwordConfirmation: 'The password confirmation does not match.',
  currentPasswordRequired: 'The current password is required.',
  currentPasswordWrong: 'The provided password does not match your current password.',
  confirmPassword: 'Please confirm your password.',
  passwordUpdated: 'Your password has been updated.',
  passwordReset: 'Your password has been reset. Please sign in.',
  resetLinkSent: 'If that address belongs to an account, we have emailed a password reset link.',
  resetTokenInvalid: 'This password reset token is invalid.',
  verificationSent: 'A new verification link has been sent to your email address.',
  verificationInvalid: 'The verification link is invalid.',
  verificationExpired: 'The verification link is invalid or has expired.',
  termsRequired: 'The terms must be accepted.',
  registered: 'Thank you for registering. An administrator will activate your account.',
  sixDigits: 'The code is six digits.',
  twoFactorCodeInvalid: 'The provided two factor authentication code was invalid.',
  twoFactorRequired: 'Two-factor authentication must be enabled for this account.',
  twoFactorAlreadyOn: 'Two-factor authentication is already enabled.',
  twoFactorOff: 'Two-factor authentication is not enabled.',
  twoFactorNothingToConfirm: 'There is no two-factor enrolment to confirm.',
  browserSessionOnly: 'This action needs a signed-in browser session.',
  adminOnlyAdminAccount: 'Only an admin can change an admin account.',
  adminOnlyMakeAdmin: 'Only an admin can make a user an admin.',
  grantNotHeld: 'You cannot grant permissions you do not hold: {{keys}}.',
  tokenExpiryPast: 'The expiry must be in the future.',
  roleMissing: 'This role does not exist.',
  branchMissing: 'This branch does not exist.',
  companyMissing: 'This company does not exist.',
  testMailSent: 'The test mail was sent.',
  crossSite: 'Cross-site request refused.',
  // the last admin stays; one's own password and 2FA change on the profile; required 2FA needs its feature
  lastAdminDemote: 'The last active admin must stay an admin: make another user an admin first.',
  lastAdminDeactivate: 'The last active admin cannot be deactivated: make another user an admin first.',
  lastAdminDelete: 'The last active admin cannot be deleted: make another user an admin first.',
  ownPasswordOnProfile: 'Change your own password on your profile, with your current password.',
  ownTwoFactorOnProfile: 'Turn off your own two-factor authentication on your profile.',
  twoFactorRequiredNeedsFeature:
    'Two-factor authentication cannot be required while staff cannot manage it: keep that feature on.',
  // ---- access rules: nobody reaches an account, role, setting or power stronger than its own ----
  insufficientRights: 'You do not have the rights to do this.',
  accountStronger: 'You cannot change an account that has more rights than yours.',
  roleOwn: 'You cannot change the role you hold yourself: ask an admin.',
  roleStronger: 'You cannot change a role that has rights you do not hold.',
  roleOtherBranches:
    'This role is held by users of other branches: only someone who sees every branch can change it.',
  scopeNotHeld: 'You cannot grant access to every branch: your own role sees one branch only.',
  adminOnlySettings: 'Only an admin can change the mail, security and storage settings.',
  ownEmailOnProfile: 'Change your own email address on your profile, with your current password.',
  ownAccountOnProfile: 'Change your own account on your profile.',

  // ---- reference data ----
  chooseBranchFirst: 'Choose a branch first.',
  chooseActiveCurrency: 'Choose an active currency of the currency list.',
  defaultCurrencyInUse:
    'This is the default currency in the settings: choose another default currency first.',
  currencyCodeOption: 'A currency is a three-letter code (ISO 4217).',
  optionCodeUsed: 'This code is used by {{count}} record(s) and cannot be changed.',
  deactivateIt: 'Deactivate it instead of deleting it.',
  deactivateThem: 'Deactivate them instead of deleting them.',
  areaOwnDistrict: 'An area cannot be its own district.',
  areaWithDistricts: 'An area that has districts cannot become a district.',
  chooseArea: 'Choose an area for this district.',
  termsDefaultActive: 'The default terms must stay active.',
  termsDefaultDelete: 'Make other terms the default before deleting these.',
  termsAlwaysDefault: 'Make other terms the default instead: there is always one default.',
  formatRequired: 'The format is required.',
  formatSeqWidth: 'The width of {seq:N} must be between 1 and 10.',
  formatUnknownToken: 'Unknown token {{token}}: use {branch}, {yyyy}, {yy}, {mm} and {seq:N}.',
  formatBrace: 'A brace is not closed: use {branch}, {yyyy}, {yy}, {mm} and {seq:N}.',
  formatSeqOnce: 'The format must contain {seq:N} exactly once.',
  formatControl: 'The format cannot contain control characters.',
  formatTooLong: 'Numbers in this format can be longer than {{max}} characters.',
  stateNotAllowed: 'This action is not allowed in the record’s current state.',

  // ---- hostile or unreadable input ----
  textControl: 'Remove the control characters from this text (such as NUL or text-direction marks).',
  bodyUnreadable: 'The request body could not be read.',
  unsupportedBody:
    'Send the request body as UTF-8 JSON, without a content encoding the server does not read.',
  keyNotAllowed: 'The field name "{{key}}" is not allowed.',
  bodyTooDeep: 'The request body may not be nested more than {{max}} levels deep.',

  // ---- files, imports ----
  fileTooLarge: 'The file is too large.',
  fileLargerThan: 'The file is larger than {{max}} MB.',
  importChoose: 'Choose a CSV or XLSX file to import.',
  importTypes: 'Only CSV or XLSX files can be imported.',
  uploadOneFile: 'Send one file in the field "file" and nothing else.',
  uploadMultipart: 'Send the file as multipart/form-data.',
  csvUtf8: 'Save the CSV file as UTF-8.',
  fileNotXlsx: 'The file is not a readable XLSX workbook.',
  fileNotCsv: 'The file is not a readable CSV file.',
  fileMaxRows: 'A file can hold at most {{max}} rows.',
  csvQuoteOpen: 'A quoted field opened on line {{line}} is never closed.',
  importColumns: 'The first row must name the columns: missing {{columns}} (date, name_en, name_zh).',
  importEmpty: 'The file has no holidays in it.',
  importRow: 'Row {{row}}: {{message}}',
  importDateTwice: '{{date}} is also on row {{row}}.',
  importDateStored: '{{date}}: {{message}}',
  importRowsBad: 'Rows with errors: {{count}}. Nothing was imported.',
  // uploads (server/src/modules/files; shared/files.ts names them)
  fileChoose: 'Choose a file to upload.',
  fileBadName: 'This file name is not allowed.',
  fileTypeNotAllowed: 'This type of file is not allowed.',
  fileImageOnly: 'Choose a JPG, PNG, WebP or GIF image.',
  fileContentMismatch: 'The file’s content does not match its extension.',
  fileNotText: 'The file is not plain UTF-8 text.',
  fileCsvQuote: 'The CSV file cannot be read: a quoted value is not closed.',
  fileEmpty: 'The file is empty.',
  storageSuspended: 'File storage is suspended: no uploads are accepted for now.',
  // bounds checked before a spreadsheet or an image is read (quality §34)
  sheetTooLarge: 'The spreadsheet is too large once unpacked: at most {{max}} MB.',
  sheetCompression: 'The spreadsheet is compressed far more than a real one is, and was not read.',
  sheetMaxCells: 'A file can hold at most {{max}} cells.',
  imageTooLarge: 'The image is too large: at most {{max}} megapixels.',
  imageUnreadable: 'The image cannot be read.',
} as const;

export type FieldMessageKey = keyof typeof FIELD_MESSAGES;

/** A catalog message with its placeholders filled: `fieldMessage('tooLong', { max: 200 })`. */
export function fieldMessage(key: FieldMessageKey, params: Record<string, string | number> = {}): string {
  return FIELD_MESSAGES[key].replace(/{{(\w+)}}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** Every catalogued message, spec messages first: English text → key. */
export const MESSAGE_CATALOG: ReadonlyMap<string, string> = new Map([
  ...Object.entries(MESSAGES).map(([key, text]) => [text, key] as [string, string]),
  ...Object.entries(FIELD_MESSAGES).map(([key, text]) => [text, key] as [string, string]),
]);

interface Template {
  key: string;
  pattern: RegExp;
  names: string[];
}

const TEMPLATES: Template[] = Object.entries(FIELD_MESSAGES)
  .filter(([, text]) => text.includes('{{'))
  .map(([key, text]) => {
    const names: string[] = [];
    const source = text
      .split(/({{\w+}})/)
      .map((part) => {
        const name = /^{{(\w+)}}$/.exec(part)?.[1];
        if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return '(.+?)';
      })
      .join('');
    return { key, pattern: new RegExp(`^${source}$`, 's'), names };
  });

/**
 * Which catalogued message a text is: its key and the placeholder values, or null. Exact texts win over
 * templates; a `message` placeholder is itself looked up by the caller.
 */
export function matchMessage(text: string): { key: string; params: Record<string, string> } | null {
  const exact = MESSAGE_CATALOG.get(text);
  if (exact) return { key: exact, params: {} };
  for (const template of TEMPLATES) {
    const match = template.pattern.exec(text);
    if (match) {
      const params: Record<string, string> = {};
      template.names.forEach((name, i) => (params[name] = match[i + 1]));
      return { key: template.key, params };
    }
  }
  return null;
}

type Issue = z.core.$ZodRawIssue;

/**
 * zod's own messages, replaced by catalogued ones so that the client can show them in the user's language.
 * A message a schema gives itself (`.min(1, 'This field is required.')`) still wins.
 */
export function zodMessage(issue: Issue): string {
  const sized = issue as Issue & { origin?: string; maximum?: unknown; minimum?: unknown };
  switch (issue.code) {
    case 'too_big':
      if (sized.origin === 'string') return fieldMessage('tooLong', { max: String(sized.maximum) });
      if (sized.origin === 'array' || sized.origin === 'set')
        return fieldMessage('tooManyItems', { max: String(sized.maximum) });
      return fieldMessage('tooLarge', { max: String(sized.maximum) });
    case 'too_small':
      if (sized.origin === 'string')
        return Number(sized.minimum) <= 1
          ? FIELD_MESSAGES.required
          : fieldMessage('tooShort', { min: String(sized.minimum) });
      if (sized.origin === 'array' || sized.origin === 'set')
        return fieldMessage('tooFewItems', { min: String(sized.minimum) });
      return fieldMessage('tooSmall', { min: String(sized.minimum) });
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return FIELD_MESSAGES.required;
      if ((issue as { expected?: string }).expected === 'int') return FIELD_MESSAGES.notAWholeNumber;
      if ((issue as { expected?: string }).expected === 'number') return FIELD_MESSAGES.notANumber;
      return FIELD_MESSAGES.invalidValue;
    case 'invalid_format': {
      const format = (issue as { format?: string }).format;
      if (format === 'email') return MESSAGES.invalidEmail;
      if (format === 'date') return FIELD_MESSAGES.invalidDate;
      if (format === 'url') return FIELD_MESSAGES.invalidUrl;
      return FIELD_MESSAGES.invalidValue;
    }
    case 'invalid_value':
    case 'invalid_union':
      return FIELD_MESSAGES.chooseListed;
    case 'unrecognized_keys':
      return FIELD_MESSAGES.notAllowed;
    default:
      return FIELD_MESSAGES.invalidValue;
  }
}

let installed = false;

/** Makes `zodMessage` zod's message for every issue a schema does not word itself (server and client). */
export function installZodMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: (issue) => zodMessage(issue) });
}
