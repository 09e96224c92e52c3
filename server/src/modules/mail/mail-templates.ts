/**
 * The mails the system sends, in each interface language. A mail goes out in its recipient's language (the
 * account's `language`); the test mail in the language of the admin who asked for it.
 */
export type MailLanguage = 'en' | 'zh_HK';

interface Rendered {
  subject: string;
  text: string;
}

const TEMPLATES = {
  passwordReset: {
    en: (p: { link: string }) => ({
      subject: 'Reset your password',
      text: `You asked to reset your password. Follow this link within 60 minutes:\n\n${p.link}\n\nIf you did not ask, ignore this message.`,
    }),
    zh_HK: (p: { link: string }) => ({
      subject: '重設密碼',
      text: `您要求重設密碼。請於 60 分鐘內開啟以下連結：\n\n${p.link}\n\n如您沒有提出此要求，請忽略本電郵。`,
    }),
  },
  verifyEmail: {
    en: (p: { link: string }) => ({
      subject: 'Verify your email address',
      text: `Please follow this link to verify your email address:\n\n${p.link}\n\nThe link is valid for 24 hours.`,
    }),
    zh_HK: (p: { link: string }) => ({
      subject: '驗證電郵地址',
      text: `請開啟以下連結以驗證您的電郵地址：\n\n${p.link}\n\n連結於 24 小時內有效。`,
    }),
  },
  testMail: {
    en: (_p: Record<string, never>) => ({
      subject: 'Test mail',
      text: 'This is a test mail from the study-abroad administration system. The SMTP settings work.',
    }),
    zh_HK: (_p: Record<string, never>) => ({
      subject: '測試電郵',
      text: '這是留學行政系統發出的測試電郵。SMTP 設定運作正常。',
    }),
  },
} satisfies Record<string, Record<MailLanguage, (params: never) => Rendered>>;

export type MailTemplate = keyof typeof TEMPLATES;

export function mailLanguage(language: string | null | undefined): MailLanguage {
  return language === 'en' ? 'en' : 'zh_HK';
}

/** The subject and text of a mail in a language. */
export function renderMail<T extends MailTemplate>(
  template: T,
  language: string | null | undefined,
  params: Parameters<(typeof TEMPLATES)[T]['en']>[0],
): Rendered {
  const render = TEMPLATES[template][mailLanguage(language)] as (p: typeof params) => Rendered;
  return render(params);
}
