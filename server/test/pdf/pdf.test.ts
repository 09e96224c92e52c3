import { inScriptFonts, renderPdf, scriptRuns } from '../../src/modules/pdf/pdf.service';
import { pdfText } from '../pdf-text';

describe('the PDF printer', () => {
  it('cuts Korean runs out into the Korean font, leaving the rest as it was', () => {
    expect(scriptRuns('學生 김민준 (KIM)')).toEqual(['學生 ', { text: '김민준', font: 'NotoKR' }, ' (KIM)']);
    expect(inScriptFonts('陳大文')).toBe('陳大文');
    expect(inScriptFonts({ table: { body: [['서울', 'HKD']] } })).toEqual({
      table: { body: [[{ text: [{ text: '서울', font: 'NotoKR' }] }, 'HKD']] },
    });
  });

  it('prints Chinese and Korean as glyphs that a reader extracts again, fonts embedded as subsets', async () => {
    const pdf = await renderPdf({
      content: [
        { text: '發票 Invoice', bold: true, fontSize: 16 },
        '學生：陳大文 김민준 CHAN Tai Man',
        {
          table: {
            body: [
              ['描述', '金額'],
              ['서울대학교 語言課程', 'KRW 1,500,000'],
            ],
          },
        },
      ],
    });
    const text = pdfText(pdf);
    for (const expected of [
      '發票 Invoice',
      '陳大文',
      '김민준',
      'CHAN Tai Man',
      '서울대학교',
      '語言課程',
      'KRW 1,500,000',
    ]) {
      expect(text).toContain(expected);
    }
    // subsets: a few glyphs of two 7 MB fonts, not the fonts
    expect(pdf.length).toBeLessThan(100_000);
    console.log(`PDF with Chinese and Korean: ${pdf.length} bytes, every name read back by pdftotext`);
  });
});
