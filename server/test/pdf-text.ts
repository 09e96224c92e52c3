import { execFileSync } from 'node:child_process';

/**
 * The text of a PDF as a reader's tool extracts it (`pdftotext` from poppler-utils, which `.ci/run` installs): what
 * prints as glyphs comes back as text; a character printed without a glyph (a box) does not.
 */
export function pdfText(pdf: Buffer, { layout = false }: { layout?: boolean } = {}): string {
  return execFileSync('pdftotext', [...(layout ? ['-layout'] : []), '-enc', 'UTF-8', '-', '-'], {
    input: pdf,
    encoding: 'utf8',
  });
}
