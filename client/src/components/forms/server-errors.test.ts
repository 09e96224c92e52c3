import i18next from 'i18next';
import { z } from 'zod';
import { FIELD_MESSAGES, fieldMessage } from '../../../../shared/messages';
import { formatProblem } from '../../../../shared/schemas/numbering';
import { deleteErrorMessage, zodRule } from '../resource/resource-errors';
import { translateServerMessage } from './server-errors';

const zh = i18next.getFixedT('zh_HK');
const en = i18next.getFixedT('en');

describe('server messages in the user language', () => {
  it('shows every catalogued message in Traditional Chinese, none left in English', () => {
    const untranslated = Object.entries(FIELD_MESSAGES).filter(
      ([, text]) => translateServerMessage(text, zh) === text,
    );
    expect(untranslated).toEqual([]);
  });

  it('fills a template with the values the server sent, translating a nested message too', () => {
    const sent = fieldMessage('importRow', { row: 3, message: fieldMessage('tooLong', { max: 200 }) });
    expect(translateServerMessage(sent, zh)).toBe('第 3 行：不可多於 200 個字元。');
    expect(translateServerMessage(sent, en)).toBe(sent);
    expect(translateServerMessage(fieldMessage('formatUnknownToken', { token: '{dd}' }), zh)).toBe(
      '不明的代號 {dd}：請使用 {branch}、{yyyy}、{yy}、{mm} 及 {seq:N}。',
    );
  });

  it('leaves a message nobody catalogued as it came', () => {
    expect(translateServerMessage('Something new.', zh)).toBe('Something new.');
  });

  it("words the form's own schema checks in zh_HK, before anything is sent", async () => {
    const schema = z.strictObject({ code: z.string().max(4), email: z.email() });
    await expect(zodRule(schema, 'code', zh).validator(null, 'TOO-LONG')).rejects.toThrow(
      '不可多於 4 個字元。',
    );
    await expect(zodRule(schema, 'email', zh).validator(null, 'not-mail')).rejects.toThrow('電郵地址無效');
    expect(translateServerMessage(formatProblem('{seq:4}-{seq:4}') ?? '', zh)).toBe(
      '格式必須剛好包含一次 {seq:N}。',
    );
  });
});

describe('a refused delete', () => {
  const refused = {
    status: 409,
    handled: false,
    data: { message: 'x', code: 'referenced', references: { districts: 1 } },
  };

  it('names what still uses the record, and joins the hint as each language writes sentences', () => {
    expect(deleteErrorMessage(refused, zh, 'serverMessages.deactivateIt')).toBe(
      '此紀錄無法刪除，因為仍有以下項目使用：1 個地區。請改為停用，而不是刪除。',
    );
    expect(deleteErrorMessage(refused, en, 'serverMessages.deactivateIt')).toBe(
      'This record cannot be deleted: it is still used by 1 district(s). Deactivate it instead of deleting it.',
    );
  });
});
