import { act, render, screen } from '@testing-library/react';
import { Button, Form, Input } from 'antd';
import i18next from 'i18next';
import { z } from 'zod';
import type { ErrorBody } from '../../../../shared/errors';
import { CATALOG, FIELD_MESSAGES, placeholders, type MessageKey } from '../../../../shared/messages';
import { formatProblemRef } from '../../../../shared/schemas/numbering';
import type { ApiError } from '../../app/api';
import { zhHK } from '../../locales';
import { deleteErrorMessage, serverFormErrors, zodRule } from '../resource/resource-errors';
import { errorSummary, messageText, showSubmitError } from './server-errors';

const zh = i18next.getFixedT('zh_HK');
const en = i18next.getFixedT('en');

/** A failed answer as the HTTP client hands it over: keys only, no English anywhere. */
function refused(status: number, data: Omit<ErrorBody, 'message'>): ApiError {
  return { status, handled: false, data: data as ErrorBody };
}

/** Characters of Simplified Chinese that Traditional (Hong Kong) writes otherwise. */
const SIMPLIFIED =
  /[这个们说时来对为发会后么过还没点问题请输设码错误删户账号数据录类选项证验许权从启变传档图务币额应该须统网页]/;

describe('the message catalog in zh_HK', () => {
  const texts = (zhHK as unknown as { serverMessages: Record<string, string> }).serverMessages;

  it('has a Traditional Chinese text for every key, with the same placeholders as the English', () => {
    const problems: string[] = [];
    for (const [key, english] of Object.entries(CATALOG)) {
      const text = texts[key];
      if (typeof text !== 'string' || !text) problems.push(`${key}: missing`);
      else {
        if (key in FIELD_MESSAGES && text === english) problems.push(`${key}: English`);
        if (SIMPLIFIED.test(text)) problems.push(`${key}: simplified ${text}`);
        const want = [...placeholders(english)].sort();
        const got = [...placeholders(text)].sort();
        if (want.join() !== got.join()) problems.push(`${key}: {{${got}}} instead of {{${want}}}`);
      }
    }
    expect(problems).toEqual([]);
    expect(Object.keys(CATALOG).length).toBeGreaterThan(140);
  });
});

describe('server messages in the user language, from their keys', () => {
  it('fills a template with the values the server sent, translating a nested message too', () => {
    const ref = {
      key: 'importRow' as MessageKey,
      params: { row: 3, message: { key: 'tooLong' as MessageKey, params: { max: 200 } } },
    };
    expect(messageText(ref, zh)).toBe('第 3 行：不可多於 200 個字元。');
    expect(messageText(ref, en)).toBe('Row 3: May not be longer than 200 characters.');
    expect(messageText({ key: 'formatUnknownToken', params: { token: '{dd}' } }, zh)).toBe(
      '不明的代號 {dd}：請使用 {branch}、{yyyy}、{yy}、{mm} 及 {seq:N}。',
    );
  });

  it('shows the generic error for a key it does not know (a newer server), never a raw key', () => {
    expect(messageText({ key: 'somethingNew' as MessageKey }, zh)).toBe(zh('errors.generic'));
  });

  it('words the summary from message_key', () => {
    const error = refused(409, { code: 'conflict', message_key: 'twoFactorAlreadyOn' });
    expect(errorSummary(error, zh)).toBe(zh('serverMessages.twoFactorAlreadyOn'));
    expect(errorSummary(error, zh)).not.toMatch(/[A-Za-z]{4}/);
  });

  it("words the form's own schema checks in zh_HK, before anything is sent", async () => {
    const schema = z.strictObject({ code: z.string().max(4), email: z.email() });
    await expect(zodRule(schema, 'code', zh).validator(null, 'TOO-LONG')).rejects.toThrow(
      '不可多於 4 個字元。',
    );
    await expect(zodRule(schema, 'email', zh).validator(null, 'not-mail')).rejects.toThrow('電郵地址無效');
    expect(messageText(formatProblemRef('{seq:4}-{seq:4}')!, zh)).toBe('格式必須剛好包含一次 {seq:N}。');
  });
});

function ProfileForm({ error }: { error: ApiError }) {
  const [form] = Form.useForm();
  return (
    <Form form={form}>
      <Form.Item name="email" label="email">
        <Input />
      </Form.Item>
      <Form.Item name="password" label="password">
        <Input />
      </Form.Item>
      <Button onClick={() => showSubmitError(error, form, zh, () => undefined)}>save</Button>
    </Form>
  );
}

describe('a form refused by the server', () => {
  it('shows each field error in zh_HK from error_keys alone', async () => {
    const error = refused(422, {
      code: 'validation',
      message_key: 'passwordMin',
      error_keys: {
        email: [{ key: 'invalidEmail' }],
        password: [{ key: 'passwordMin' }, { key: 'tooLong', params: { max: 72 } }],
      },
    });
    render(<ProfileForm error={error} />);
    await act(async () => screen.getByRole('button').click());
    expect(await screen.findByText('電郵地址無效')).toBeInTheDocument();
    expect(screen.getByText(zh('serverMessages.passwordMin'))).toBeInTheDocument();
    expect(screen.getByText('不可多於 72 個字元。')).toBeInTheDocument();
  });

  it('puts the errors of fields not on a resource form in its summary', () => {
    const error = refused(422, {
      code: 'business_rule',
      message_key: 'termsDefaultActive',
      error_keys: { is_active: [{ key: 'termsDefaultActive' }], name_en: [{ key: 'required' }] },
    });
    expect(serverFormErrors(error, zh, ['name_en'])).toEqual({
      fields: [{ name: 'name_en', errors: ['此欄位必須填寫。'] }],
      summary: zh('serverMessages.termsDefaultActive'),
    });
  });
});

describe('a refused delete', () => {
  const plain = refused(409, { code: 'referenced', references: { districts: 1 } });

  it('names what still uses the record, and joins the hint as each language writes sentences', () => {
    expect(deleteErrorMessage(plain, zh, 'serverMessages.deactivateIt')).toBe(
      '此紀錄無法刪除，因為仍有以下項目使用：1 個地區。請改為停用，而不是刪除。',
    );
    expect(deleteErrorMessage(plain, en, 'serverMessages.deactivateIt')).toBe(
      'This record cannot be deleted: it is still used by 1 district(s). Deactivate it instead of deleting it.',
    );
  });

  it('renders the server’s key: the hint it names, the counts worded here, the entity named if declared', () => {
    const error = (entity: string) =>
      refused(409, {
        code: 'referenced',
        message_key: 'stillUsedByHint',
        message_params: { entity, references: '2 students', hint: { key: 'deactivateIt' } },
        references: { students: 2 },
      });
    // no record name on the client for this entity: "this record"
    expect(deleteErrorMessage(error('nothing declared'), zh)).toBe(
      '此紀錄無法刪除，因為仍有以下項目使用：2 名學生。請改為停用，而不是刪除。',
    );
    const record = zh('resources.option.record', { defaultValue: '' });
    if (record) {
      expect(deleteErrorMessage(error('option'), zh)).toBe(
        zh('serverMessages.stillUsedBy', { entity: record, references: '2 名學生' }) +
          '請改為停用，而不是刪除。',
      );
    }
  });
});
