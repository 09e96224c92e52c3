import { z } from 'zod';
import { messageEnglish, type MessageRef } from '../messages';

/**
 * Document numbers (domain.md "settings"): a format such as `INV-{branch}-{yyyy}-{seq:5}` with the tokens
 * `{branch}` (the branch code), `{yyyy}`, `{yy}`, `{mm}` and `{seq:N}` (the sequence, zero-padded to N digits).
 * Shared so that the settings screen previews a format as it is typed, exactly as the server will number.
 */
export const NUMBERED_DOCUMENTS = ['quotation', 'order', 'receipt', 'refund', 'student'] as const;
export type NumberedDocument = (typeof NUMBERED_DOCUMENTS)[number];

export const FORMAT_SETTING: Record<NumberedDocument, `${NumberedDocument}_no_format`> = {
  quotation: 'quotation_no_format',
  order: 'order_no_format',
  receipt: 'receipt_no_format',
  refund: 'refund_no_format',
  student: 'student_no_format',
};

export const DEFAULT_FORMATS: Record<NumberedDocument, string> = {
  quotation: 'QUO-{branch}-{yyyy}-{seq:5}',
  order: 'INV-{branch}-{yyyy}-{seq:5}',
  receipt: 'REC-{branch}-{yyyy}-{seq:5}',
  refund: 'REF-{branch}-{yyyy}-{seq:5}',
  student: 'STU-{branch}-{yyyy}-{seq:5}',
};

export const NUMBER_TOKENS = ['{branch}', '{yyyy}', '{yy}', '{mm}', '{seq:N}'] as const;

const TOKEN = /\{([^{}]*)\}/g;
/** Longest number a document column holds (students.student_no and the others are 40 characters). */
export const MAX_NUMBER_LENGTH = 40;

/** Why a format cannot be used (a catalogued message), or null when it can. */
export function formatProblemRef(format: string): MessageRef | null {
  if (!format.trim()) return { key: 'formatRequired' };
  let seqCount = 0;
  for (const match of format.matchAll(TOKEN)) {
    const token = match[1];
    const seq = /^seq:(\d+)$/.exec(token);
    if (seq) {
      const width = Number(seq[1]);
      if (width < 1 || width > 10) return { key: 'formatSeqWidth' };
      seqCount++;
    } else if (!['branch', 'yyyy', 'yy', 'mm'].includes(token)) {
      return { key: 'formatUnknownToken', params: { token: `{${token}}` } };
    }
  }
  const outside = format.replace(TOKEN, '');
  if (/[{}]/.test(outside)) return { key: 'formatBrace' };
  if (seqCount !== 1) return { key: 'formatSeqOnce' };
  if ([...format].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) {
    return { key: 'formatControl' };
  }
  // the longest number it can give (a 10-character branch code) must fit the document's column
  if (
    formatNumber(format, { branch: 'X'.repeat(10), date: new Date(0), seq: 1 }).length > MAX_NUMBER_LENGTH
  ) {
    return { key: 'formatTooLong', params: { max: MAX_NUMBER_LENGTH } };
  }
  return null;
}

/** Why a format cannot be used, in English, or null when it can. */
export function formatProblem(format: string): string | null {
  const problem = formatProblemRef(format);
  return problem ? messageEnglish(problem) : null;
}

/** Whether the sequence restarts each year (the number shows the year) and runs per branch (it shows the branch). */
export function sequenceScope(format: string): { perBranch: boolean; perYear: boolean } {
  return { perBranch: format.includes('{branch}'), perYear: /\{yyyy\}|\{yy\}/.test(format) };
}

/** The number for `seq` in `format`; the date's year and month are read in UTC. */
export function formatNumber(format: string, values: { branch: string; date: Date; seq: number }): string {
  const yyyy = String(values.date.getUTCFullYear()).padStart(4, '0');
  const mm = String(values.date.getUTCMonth() + 1).padStart(2, '0');
  return format.replace(TOKEN, (_whole, token: string) => {
    if (token === 'branch') return values.branch;
    if (token === 'yyyy') return yyyy;
    if (token === 'yy') return yyyy.slice(-2);
    if (token === 'mm') return mm;
    const seq = /^seq:(\d+)$/.exec(token);
    if (seq) return String(values.seq).padStart(Number(seq[1]), '0');
    return `{${token}}`;
  });
}

export const zNumberFormat = z
  .string()
  .trim()
  .max(60)
  .superRefine((value, ctx) => {
    const problem = formatProblemRef(value);
    // the catalogued message rides along in `params.message` (shared/messages.ts zodMessageRef)
    if (problem)
      ctx.addIssue({ code: 'custom', message: messageEnglish(problem), params: { message: problem } });
  });

export const ZNumberingPreviewQuery = z.strictObject({
  document: z.enum(NUMBERED_DOCUMENTS),
  branch_id: z.coerce.number().int().positive().optional(),
  /** preview a format that is not saved yet (the screen's live preview) */
  format: zNumberFormat.optional(),
});
export type NumberingPreviewQuery = z.infer<typeof ZNumberingPreviewQuery>;
