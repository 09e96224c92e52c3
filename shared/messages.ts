import { z } from 'zod';
import { MESSAGES } from './errors';

/**
 * Every message the server may put in an answer (field errors, business rules, notices), in English, by key.
 * Answers carry the key and its placeholder values (`message_key` / `message_params`, `error_keys`: shared/errors.ts
 * `ErrorBody`) beside the English text; the client shows `serverMessages.<key>` in the user's language
 * (client/src/locales/messages.zh_HK.json; en is this catalog itself) and never reads the English. The spec's own
 * messages are in `MESSAGES` (shared/errors.ts): the two objects make one catalog (`MessageKey`, `CATALOG`). A
 * placeholder value may itself be a message (`{ key, params }`, e.g. `importRow`'s `message`), translated in
 * turn. A test reads the server's and the shared schemas' sources and fails on a message that is not here.
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
  timeOfDay: 'Must be a time of day (HH:mm).',
  dateRangeOrder: 'The end date may not be before the start date.',
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
  httpsRequired:
    'Signing in needs a secure connection: open this site at its https:// address. (On a trusted network without HTTPS, an administrator can set COOKIE_SECURE=false.)',
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
  // schools and intakes
  chooseAreaNotDistrict: 'Choose an area, not a district.',
  chooseAreaFirst: 'Choose the area first.',
  districtNotInArea: 'This district is not in the chosen area.',
  startAfterDeadline: 'Start date must be on or before the deadline date.',
  deadlineBeforeStart: 'The deadline date must be on or after the start date.',
  interviewBeforeStart: 'The interview date must be on or after the application start date.',
  resultBeforeInterview: 'The result date must be on or after the interview date.',
  resultBeforeStart: 'The result date must be on or after the application start date.',
  semesterBeforeResult: 'The semester must start on or after the result date.',
  semesterBeforeDeadline: 'The semester must start on or after the application deadline.',
  subjectNotOfSchool: 'Only this school’s subjects can be offered.',
  recordMissing: 'The chosen record does not exist.',
  // students, applications and their document checklists
  consultantNotOfBranch: 'The consultant must be a staff member of the student’s branch.',
  intakeNotOfSchool: 'This admission time is not one of the chosen school’s.',
  subjectNotOfIntake: 'The chosen admission time does not open this subject.',
  educationEndBeforeStart: 'The end date must be on or after the start date.',
  documentCannotSubmit:
    'Only an uploaded or taken-back document can be marked submitted: upload its file first.',
  documentCannotUnsubmit: 'Only a submitted document can be taken back.',
  documentCannotCancel:
    'A submitted document cannot be cancelled: take it back first. A cancelled one is cancelled already.',
  documentCannotRestore: 'Only a cancelled document can be restored.',
  documentCannotUpload: 'A file can be added only to a pending, uploaded or taken-back document.',
  documentCannotRemoveFile:
    'The file can be removed only while the document is uploaded and not yet submitted.',
  studentNotSubmitted: 'This student has not submitted their information: there is nothing to reopen.',
  portalEmailFirst: 'Set the student’s portal email and turn on portal access first.',
  portalInvitationSent: 'The invitation was sent to {{email}}.',
  portalLinkInvalid: 'This link is invalid or has expired.',
  portalPasswordSet: 'Your password has been set. Please sign in.',
  // the student portal (issue 14)
  portalLocked:
    'Your information has been submitted and can no longer be changed. Ask your consultant to reopen it.',
  portalMustChangePassword: 'Change the password you were given before you continue.',
  portalIntakeNotOpen: 'This admission time is not open for applications today.',
  portalWithdrawRefused:
    'This choice can no longer be withdrawn: it has been sent to the school, or its documents have been submitted.',
  portalPrimaryEducation: 'Add at least one primary school to your education before submitting.',
  portalSecondaryEducation: 'Add at least one secondary school to your education before submitting.',
  portalSubmitted: 'Your information has been submitted.',
  fileUseApplicationDocument: 'the file of {{label}} in a document checklist',
  fileUseGradeReport: 'the report file of {{label}}',
  applicationIntakeLocked:
    'The school and admission time can no longer be changed: documents of this application’s checklist have been uploaded, submitted or cancelled.',
  applicationDocumentsSubmitted:
    'Documents of this application have been submitted to the school: take them back before deleting it.',
  // services, special events and their registrations, quotation items (issue 26)
  regEndBeforeRegStart: 'Registration must close on or after the day it opens.',
  regEndAfterEventEnd: 'Registration must close on or before the day the event ends.',
  eventRegistrationClosed:
    'Registration for this event is closed: it is open from {{start}} to {{end}} (Hong Kong dates).',
  eventFull: 'This event is full: its {{capacity}} place(s) are taken.',
  capacityBelowTaken: 'The capacity cannot be less than the {{count}} places already taken.',
  registrationCannotAttend: 'Only a registered student can be marked attended.',
  registrationCannotCancel: 'Only a registration that is still open can be cancelled.',
  chooseSchoolFirst: 'Choose the school first.',
  chooseIntakeFirst: 'Choose the admission time first.',
  // quotations and invoices (issue 27)
  quotationCannotSend: 'Only a draft quotation can be sent.',
  quotationCannotAccept: 'Only a sent quotation can be accepted.',
  quotationCannotReject: 'Only a sent quotation can be rejected.',
  quotationExpired: 'This quotation expired after {{date}} (Hong Kong date): change its validity first.',
  quotationCannotConvert: 'Only an accepted quotation can be converted into an invoice.',
  quotationAlreadyConverted: 'This quotation has already been converted into invoice {{number}}.',
  quotationConvertedLocked: 'A converted quotation can no longer be changed, except its contract.',
  lineOneSource: 'A line names at most one of a service, a quotation item or an event.',
  lineCurrencyMismatch: 'This item is priced in {{currency}}, not in the document’s currency {{expected}}.',
  documentAmountsTooLarge: 'The amounts of this document are too large.',
  orderAlreadyVoid: 'This invoice is already void.',
  orderNotVoid: 'Only a void invoice can be unvoided.',
  orderVoidLocked: 'A void invoice cannot be changed: unvoid it first.',
  orderVoidReceipts:
    'This invoice has approved receipts of {{amount}} that have not been refunded: refund them before voiding it.',
  receiptsAboveTotal: 'Total receipt amount must be equal to or below the total amount.',
  orderCurrencyLocked: 'The currency and the student cannot change once a receipt exists.',
  // receipts, refunds and prepaid balances (issue 28)
  orderVoidNoMoney: 'A void invoice takes no receipts or refunds.',
  receiptCannotApprove: 'Only a receipt not yet approved can be approved.',
  receiptCannotUnapprove: 'Only an approved receipt can be unapproved.',
  receiptCannotCancel: 'Only a receipt not yet approved can be cancelled: unapprove it first.',
  receiptOwnApproval: 'Another person must approve this: you recorded it.',
  receiptApprovedLocked: 'An approved or cancelled receipt cannot be changed.',
  receiptOrderLocked: 'A receipt’s invoice, amount and method cannot change: cancel it and record another.',
  receiptUnapproveRefunded:
    'This receipt cannot be unapproved: {{amount}} of the invoice is refunded or being refunded.',
  refundCannotApprove: 'Only a pending refund can be approved.',
  refundCannotCancel: 'Only a pending refund can be cancelled.',
  refundAbovePaid:
    'The refund amount must be equal to or below the paid amount not yet refunded ({{amount}}).',
  refundReceiptMismatch: 'The receipt must be an approved receipt of this invoice.',
  refundLocked: 'An approved or cancelled refund cannot be changed.',
  prepaidInsufficient:
    'The student’s prepaid balance in {{currency}} is {{amount}}: not enough for this amount.',
  prepaidLocked: 'A prepaid deposit’s amount and currency cannot change.',
  studentNoEmail: 'This student has no e-mail address.',
  invoiceEmailed: 'The invoice has been sent to {{email}}.',
  // the calendar: staff's own entries, and the feed's date range (`end` exclusive)
  endBeforeStart: 'The end must be on or after the start.',
  calendarEndAfterStart: 'The end date must be after the start date.',
  calendarRangeTooLong: 'Ask for at most {{max}} days at a time.',
  // the reports (shared/reports): a range longer than the report reads, a PDF past its rows
  reportRangeTooLong: 'Choose at most {{max}} days.',
  reportPdfTooLong:
    'A PDF holds at most {{max}} rows and this result has more: narrow the criteria, or export XLSX or CSV.',
  currencyForAmount: 'Choose the currency of this amount.',
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
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different request.',
  idempotencyInProgress:
    'The first request with this Idempotency-Key is still being processed. Try again shortly.',
  // a refused delete (409 `referenced`): `entity` is the resource's name (`area`), `references` the counts in
  // words (the body's `references` holds them by kind), `hint` a message of this catalog
  stillUsedBy: 'This {{entity}} is still used by {{references}}.',
  stillUsedByHint: 'This {{entity}} is still used by {{references}}. {{hint}}',

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
  importRow: 'Row {{row}}: {{message}}',
  importRowsBad: 'Rows with errors: {{count}}. Nothing was imported.',
  // the generic import (server/src/resources/resource.import.ts): `column` is the column's label in the reader's
  // language, `message` a nested message of this catalog
  importRowsBadMore:
    'Rows with errors: {{count}}. Nothing was imported. The first {{shown}} errors are listed, {{more}} more are not.',
  importCell: 'Row {{row}}: {{column}}: {{message}}',
  importUnknownColumns: 'Unknown columns: {{columns}}. Use the columns of the template.',
  importMissingColumns: 'Missing columns: {{columns}}.',
  importColumnTwice: 'The column {{column}} is given twice.',
  // `column` is the sheet's column letter (A, B, … AA)
  importNoHeader:
    'Row {{row}}, column {{column}}: a value under no header. Give the column a header, or empty it.',
  importNoRows: 'The file has no rows to import.',
  importSameAs: 'The same as row {{row}}.',
  importNoMatch: 'Nothing called "{{value}}" was found.',
  importAmbiguous: '"{{value}}" names more than one record: give its id instead.',
  importYesNo: 'Use yes or no.',
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
  // a file used by a record (409 `conflict`): `use` is one of the fileUse… messages, naming the record
  fileInUse: 'This file cannot be deleted on its own: it is {{use}}. Change or remove it there.',
  fileUseSchoolLogo: 'the logo of {{label}}',
  fileUseProfilePhoto: 'the profile photo of {{label}}',
  fileUseRecord: 'used by {{label}}',
  // bounds checked before a spreadsheet or an image is read (quality §34)
  sheetTooLarge: 'The spreadsheet is too large once unpacked: at most {{max}} MB.',
  sheetCompression: 'The spreadsheet is compressed far more than a real one is, and was not read.',
  sheetMaxCells: 'A file can hold at most {{max}} cells.',
  imageTooLarge: 'The image is too large: at most {{max}} megapixels.',
  imageUnreadable: 'The image cannot be read.',
  // lists and exports at scale
  queryTimeout: 'This took too long and was stopped. Narrow the search or filter, or try again later.',
  requestCancelled: 'The request was cancelled.',
} as const;

export type FieldMessageKey = keyof typeof FIELD_MESSAGES;

/** A key of the one catalog: the spec's messages (`MESSAGES`) and `FIELD_MESSAGES`. */
export type MessageKey = keyof typeof MESSAGES | FieldMessageKey;

/** A placeholder's value: a number, a text, or another catalogued message (translated in turn). */
export type MessageParam = string | number | MessageRef;
export type MessageParams = Record<string, MessageParam>;

/** A catalogued message by key, with its placeholder values: what answers carry and clients translate. */
export interface MessageRef {
  key: MessageKey;
  params?: MessageParams;
}

/** A message reference with its English text (`msg`). */
export interface Message extends MessageRef {
  text: string;
}

/** The one lookup: key → English template. */
export const CATALOG: Readonly<Record<MessageKey, string>> = { ...MESSAGES, ...FIELD_MESSAGES };

export function isMessageKey(key: unknown): key is MessageKey {
  return typeof key === 'string' && Object.prototype.hasOwnProperty.call(CATALOG, key);
}

/** The placeholder names of a template, in order: `['row', 'message']`. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/{{(\w+)}}/g)].map((m) => m[1]);
}

/** A reference's English text, its placeholders filled (a nested message by its own English text). */
export function messageEnglish(ref: MessageRef): string {
  const params = ref.params ?? {};
  return CATALOG[ref.key].replace(/{{(\w+)}}/g, (whole, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return whole;
    const value = params[name];
    return typeof value === 'object' ? messageEnglish(value) : String(value);
  });
}

/** A catalog message to answer with: `msg('tooLong', { max: 200 })` → `{ key, params, text }`. */
export function msg(key: MessageKey, params?: MessageParams): Message {
  const ref: MessageRef = params && Object.keys(params).length ? { key, params } : { key };
  return { ...ref, text: messageEnglish(ref) };
}

/** A catalog message's English text with its placeholders filled: `fieldMessage('tooLong', { max: 200 })`. */
export function fieldMessage(key: MessageKey, params: MessageParams = {}): string {
  return messageEnglish({ key, params });
}

/** English text → key, for the exact (placeholder-free) texts of the catalog, spec messages first. */
export const MESSAGE_CATALOG: ReadonlyMap<string, MessageKey> = new Map(
  [...Object.entries(MESSAGES), ...Object.entries(FIELD_MESSAGES)]
    .filter(([, text]) => !text.includes('{{'))
    .map(([key, text]) => [text, key as MessageKey] as [string, MessageKey])
    .reverse(),
);

/**
 * The key of an exact catalogued text, or null. For the messages a zod schema states itself (always a catalogued
 * English text: `.min(1, FIELD_MESSAGES.required)`), which reach the validator as text only.
 */
export function messageRefOfText(text: string): MessageRef | null {
  const key = MESSAGE_CATALOG.get(text);
  return key ? { key } : null;
}

type Issue = z.core.$ZodRawIssue;

/** zod's own issue as a catalogued message: key and placeholders. */
function zodIssueRef(issue: Issue): MessageRef {
  const sized = issue as Issue & { origin?: string; maximum?: unknown; minimum?: unknown };
  switch (issue.code) {
    case 'too_big':
      if (sized.origin === 'string') return { key: 'tooLong', params: { max: String(sized.maximum) } };
      if (sized.origin === 'array' || sized.origin === 'set')
        return { key: 'tooManyItems', params: { max: String(sized.maximum) } };
      return { key: 'tooLarge', params: { max: String(sized.maximum) } };
    case 'too_small':
      if (sized.origin === 'string')
        return Number(sized.minimum) <= 1
          ? { key: 'required' }
          : { key: 'tooShort', params: { min: String(sized.minimum) } };
      if (sized.origin === 'array' || sized.origin === 'set')
        return { key: 'tooFewItems', params: { min: String(sized.minimum) } };
      return { key: 'tooSmall', params: { min: String(sized.minimum) } };
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return { key: 'required' };
      if ((issue as { expected?: string }).expected === 'int') return { key: 'notAWholeNumber' };
      if ((issue as { expected?: string }).expected === 'number') return { key: 'notANumber' };
      return { key: 'invalidValue' };
    case 'invalid_format': {
      const format = (issue as { format?: string }).format;
      if (format === 'email') return { key: 'invalidEmail' };
      if (format === 'date') return { key: 'invalidDate' };
      if (format === 'url') return { key: 'invalidUrl' };
      return { key: 'invalidValue' };
    }
    case 'invalid_value':
    case 'invalid_union':
      return { key: 'chooseListed' };
    case 'unrecognized_keys':
      return { key: 'notAllowed' };
    default:
      return { key: 'invalidValue' };
  }
}

/**
 * zod's own messages, replaced by catalogued ones so that the client can show them in the user's language.
 * A message a schema gives itself (`.min(1, 'This field is required.')`) still wins.
 */
export function zodMessage(issue: Issue): string {
  return messageEnglish(zodIssueRef(issue));
}

/**
 * The catalogued message of a zod issue (as parsed: `error.issues[i]`): the key of zod's own check with its
 * placeholders; a custom issue's `params.message` (a reference); or — where the schema states its own message,
 * always a catalogued English text — that text's key. An issue whose message is in none is zod's own check's.
 */
export function zodMessageRef(issue: { message: string } & Record<string, unknown>): MessageRef {
  // a refinement names its catalogued message itself: `ctx.addIssue({ code: 'custom', params: { message: ref } })`
  const named = (issue.params as { message?: MessageRef } | undefined)?.message;
  if (issue.code === 'custom' && named && isMessageKey(named.key)) return named;
  const own = zodIssueRef(issue as unknown as Issue);
  if (messageEnglish(own) === issue.message) return own;
  return messageRefOfText(issue.message) ?? own;
}

let installed = false;

/** Makes `zodMessage` zod's message for every issue a schema does not word itself (server and client). */
export function installZodMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: (issue) => zodMessage(issue) });
}
