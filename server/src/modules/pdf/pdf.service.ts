import { createRequire } from 'node:module';
import type { Content, DocumentDefinition } from './pdfmake';

/**
 * The one PDF printer (architecture.md: pdfmake on the server, with Noto Sans fonts installed with the app by npm,
 * embedded as subsets, so Chinese and Korean print as glyphs on a machine set up by `npm install` alone).
 *
 * Noto Sans HK draws Latin, Chinese (Hong Kong forms) and the CJK punctuation; it has no Hangul, and Noto Sans KR
 * draws Korean. pdfmake does not fall back from one font to another, so every text of a document is cut into runs by
 * script before printing (`inScriptFonts`): a run of Hangul in the Korean font, everything else in the Hong Kong one.
 * The printer reads nothing but its four font files (no URL, no other path).
 */

const load = createRequire(__filename);
const FONT_FILES = {
  hk: load.resolve('@expo-google-fonts/noto-sans-hk/400Regular/NotoSansHK_400Regular.ttf'),
  hkBold: load.resolve('@expo-google-fonts/noto-sans-hk/700Bold/NotoSansHK_700Bold.ttf'),
  kr: load.resolve('@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'),
  krBold: load.resolve('@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'),
};
const FONTS = {
  NotoHK: {
    normal: FONT_FILES.hk,
    bold: FONT_FILES.hkBold,
    italics: FONT_FILES.hk,
    bolditalics: FONT_FILES.hkBold,
  },
  NotoKR: {
    normal: FONT_FILES.kr,
    bold: FONT_FILES.krBold,
    italics: FONT_FILES.kr,
    bolditalics: FONT_FILES.krBold,
  },
};
const ALLOWED = new Set(Object.values(FONT_FILES));

interface Printer {
  setFonts(fonts: unknown): void;
  setUrlAccessPolicy(policy: (url: string) => boolean): void;
  setLocalAccessPolicy(policy: (path: string) => boolean): void;
  createPdf(definition: DocumentDefinition): { getBuffer(): Promise<Buffer> };
}

let printer: Printer | null = null;

/** pdfmake is loaded by the first document printed, not at start (it and its font parser are large). */
function thePrinter(): Printer {
  if (!printer) {
    printer = load('pdfmake') as Printer;
    printer.setFonts(FONTS);
    printer.setUrlAccessPolicy(() => false);
    printer.setLocalAccessPolicy((path) => ALLOWED.has(path));
  }
  return printer;
}

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]+/g;

/** A string cut into runs by script: Hangul in the Korean font, the rest in the document's font. */
export function scriptRuns(text: string): (string | { text: string; font: string })[] {
  const runs: (string | { text: string; font: string })[] = [];
  let last = 0;
  for (const match of text.matchAll(HANGUL)) {
    if (match.index > last) runs.push(text.slice(last, match.index));
    runs.push({ text: match[0], font: 'NotoKR' });
    last = match.index + match[0].length;
  }
  if (last < text.length) runs.push(text.slice(last));
  return runs;
}

/** Every text of a content tree with its Korean runs in the Korean font (a copy; the tree is not changed). */
export function inScriptFonts(content: Content): Content {
  if (typeof content === 'string') {
    if (!HANGUL.test(content)) return content;
    HANGUL.lastIndex = 0;
    return { text: scriptRuns(content) };
  }
  if (Array.isArray(content)) return content.map(inScriptFonts);
  if (content === null || typeof content !== 'object') return content;
  const out: Record<string, unknown> = { ...content };
  for (const key of ['text', 'stack', 'columns', 'ul', 'ol'] as const) {
    if (key in out) out[key] = inScriptFonts(out[key] as Content);
  }
  if (out.table && typeof out.table === 'object') {
    const table = out.table as { body?: Content[][] };
    out.table = { ...table, body: table.body?.map((row) => row.map(inScriptFonts)) };
  }
  return out as Content;
}

/** Prints a document to a PDF buffer. */
export async function renderPdf(definition: DocumentDefinition): Promise<Buffer> {
  const prepared: DocumentDefinition = {
    ...definition,
    content: inScriptFonts(definition.content),
    header: definition.header,
    footer: definition.footer,
    defaultStyle: { font: 'NotoHK', fontSize: 10, ...definition.defaultStyle },
  };
  return thePrinter().createPdf(prepared).getBuffer();
}
