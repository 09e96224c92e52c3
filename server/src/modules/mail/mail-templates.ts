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
  /** to a student, from staff: the portal's set-password link (students issue; the portal consumes it) */
  portalInvitation: {
    en: (p: { name: string; link: string; days: number }) => ({
      subject: 'Your student portal account',
      text:
        `Dear ${p.name},\n\nYou are invited to the student portal. Follow this link within ${p.days} days to set ` +
        `your password:\n\n${p.link}\n\nThe link works once. If you did not expect this message, ignore it.`,
    }),
    zh_HK: (p: { name: string; link: string; days: number }) => ({
      subject: '您的學生平台帳戶',
      text:
        `${p.name}您好：\n\n我們邀請您使用學生平台。請於 ${p.days} 日內開啟以下連結設定密碼：\n\n${p.link}\n\n` +
        '連結只可使用一次。如您沒有預期收到本電郵，請忽略。',
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
  /** to every admin: a mail, security or storage setting changed (sent through the settings before it) */
  settingsChanged: {
    en: (p: NoticeParams & { changes: string[] }) => ({
      subject: 'Security settings were changed',
      text:
        `${p.actor} changed these settings on ${p.when} (Hong Kong time)${p.ip ? ` from ${p.ip}` : ''}:\n\n` +
        `${p.changes.map((key) => `- ${settingLabel('en', key)}`).join('\n')}\n\n` +
        'If you did not expect this change, check the audit log and the settings at once.',
    }),
    zh_HK: (p: NoticeParams & { changes: string[] }) => ({
      subject: '保安設定已被更改',
      text:
        `${p.actor} 於 ${p.when}（香港時間）${p.ip ? `從 ${p.ip} ` : ''}更改了以下設定：\n\n` +
        `${p.changes.map((key) => `- ${settingLabel('zh_HK', key)}`).join('\n')}\n\n` +
        '如您沒有預期此變更，請立即檢查審計紀錄及設定。',
    }),
  },
  /** to the old address when an account's email address changes */
  emailChanged: {
    en: (p: Pick<NoticeParams, 'when'> & { email: string }) => ({
      subject: 'Your email address was changed',
      text:
        `The email address of your account was changed to ${p.email} on ${p.when} (Hong Kong time). ` +
        'Mail about your account now goes there.\n\nIf you did not make this change, contact your administrator at once.',
    }),
    zh_HK: (p: Pick<NoticeParams, 'when'> & { email: string }) => ({
      subject: '您的電郵地址已被更改',
      text:
        `您帳戶的電郵地址已於 ${p.when}（香港時間）更改為 ${p.email}，日後有關帳戶的電郵會寄往該地址。\n\n` +
        '如並非由您本人更改，請立即聯絡系統管理員。',
    }),
  },
  /** to the account when its password is changed, reset or set by an admin */
  passwordChanged: {
    en: (p: Pick<NoticeParams, 'when' | 'ip'>) => ({
      subject: 'Your password was changed',
      text:
        `The password of your account was changed on ${p.when} (Hong Kong time)${p.ip ? ` from ${p.ip}` : ''}. ` +
        'Your other sign-ins have been ended.\n\nIf you did not make this change, reset your password and contact your administrator at once.',
    }),
    zh_HK: (p: Pick<NoticeParams, 'when' | 'ip'>) => ({
      subject: '您的密碼已被更改',
      text:
        `您帳戶的密碼已於 ${p.when}（香港時間）${p.ip ? `從 ${p.ip} ` : ''}更改，其他登入已被登出。\n\n` +
        '如並非由您本人更改，請立即重設密碼並聯絡系統管理員。',
    }),
  },
  /** to a consultant: an intake's deadline within the reminder window, with the consultant's students applying */
  intakeDeadline: {
    en: (p: ReminderParams & { intake: string; school: string; students: string[] }) => ({
      subject: `Application deadline ${p.deadline}: ${p.school}, ${p.intake}`,
      text:
        `The application deadline of ${p.school}, ${p.intake} is ${p.deadline} (${daysText('en', p.days)}).\n\n` +
        `Your students applying:\n${p.students.map((line) => `- ${line}`).join('\n')}\n\n${p.link}`,
    }),
    zh_HK: (p: ReminderParams & { intake: string; school: string; students: string[] }) => ({
      subject: `申請截止日 ${p.deadline}：${p.school}（${p.intake}）`,
      text:
        `${p.school}（${p.intake}）的申請截止日為 ${p.deadline}（${daysText('zh_HK', p.days)}）。\n\n` +
        `您負責的申請學生：\n${p.students.map((line) => `- ${line}`).join('\n')}\n\n${p.link}`,
    }),
  },
  /** to a student: documents of an application still pending near its deadline (the portal's documents page) */
  pendingDocumentsStudent: {
    en: (p: ReminderParams & { name: string; school: string; documents: string[] }) => ({
      subject: `Documents still to upload before ${p.deadline}`,
      text:
        `Dear ${p.name},\n\nYour application to ${p.school} closes on ${p.deadline} (${daysText('en', p.days)}). ` +
        `These documents have not been uploaded yet:\n\n${p.documents.map((d) => `- ${d}`).join('\n')}\n\n` +
        `Upload them in the student portal:\n${p.link}`,
    }),
    zh_HK: (p: ReminderParams & { name: string; school: string; documents: string[] }) => ({
      subject: `請於 ${p.deadline} 前上載文件`,
      text:
        `${p.name}您好：\n\n您向${p.school}提交的申請將於 ${p.deadline} 截止（${daysText('zh_HK', p.days)}）。` +
        `以下文件尚未上載：\n\n${p.documents.map((d) => `- ${d}`).join('\n')}\n\n` +
        `請到學生平台上載：\n${p.link}`,
    }),
  },
  /** to the student's consultant: the same documents, named for the consultant */
  pendingDocumentsConsultant: {
    en: (p: ReminderParams & { student: string; school: string; documents: string[] }) => ({
      subject: `Documents pending: ${p.student}, deadline ${p.deadline}`,
      text:
        `${p.student}'s application to ${p.school} closes on ${p.deadline} (${daysText('en', p.days)}). ` +
        `These documents are still pending:\n\n${p.documents.map((d) => `- ${d}`).join('\n')}\n\n${p.link}`,
    }),
    zh_HK: (p: ReminderParams & { student: string; school: string; documents: string[] }) => ({
      subject: `文件未遞交：${p.student}，截止日 ${p.deadline}`,
      text:
        `${p.student}向${p.school}提交的申請將於 ${p.deadline} 截止（${daysText('zh_HK', p.days)}）。` +
        `以下文件仍未遞交：\n\n${p.documents.map((d) => `- ${d}`).join('\n')}\n\n${p.link}`,
    }),
  },
  /** to a branch's staff: invoices of the branch past their due date with money outstanding */
  overdueInvoices: {
    en: (p: { invoices: string[]; link: string }) => ({
      subject: `Overdue invoices: ${p.invoices.length}`,
      text:
        `These invoices of your branch are past their due date with an amount outstanding:\n\n` +
        `${p.invoices.map((line) => `- ${line}`).join('\n')}\n\n${p.link}`,
    }),
    zh_HK: (p: { invoices: string[]; link: string }) => ({
      subject: `逾期發票：${p.invoices.length} 張`,
      text:
        `貴分行以下發票已過到期日，仍有未付金額：\n\n` +
        `${p.invoices.map((line) => `- ${line}`).join('\n')}\n\n${p.link}`,
    }),
  },
} satisfies Record<string, Record<MailLanguage, (params: never) => Rendered>>;

/** What every reminder says: the deadline (`YYYY-MM-DD`), how many days until it, and where to act. */
export interface ReminderParams {
  deadline: string;
  days: number;
  link: string;
}

/** "in 3 days", "today", "tomorrow" — as a reminder words the days left before a deadline. */
function daysText(language: MailLanguage, days: number): string {
  if (language === 'zh_HK') return days <= 0 ? '即日' : days === 1 ? '明天' : `尚餘 ${days} 日`;
  return days <= 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`;
}

/** Who did it, when (Hong Kong time) and from where: the facts every notice gives. */
export interface NoticeParams {
  actor: string;
  when: string;
  ip: string | null;
}

/** The settings a notice names, in each language (settings without a label are named by their key). */
const SETTING_LABELS: Record<MailLanguage, Record<string, string>> = {
  en: {
    smtp_host: 'Mail server (SMTP host)',
    smtp_port: 'Mail server port',
    smtp_user: 'Mail server user name',
    smtp_password: 'Mail server password',
    smtp_from: 'Sender address',
    smtp_secure: 'Mail server encryption',
    require_two_factor: 'Two-factor authentication required for all staff',
    registration_enabled: 'Self-registration',
    storage_quota_mb: 'Storage quota',
    storage_suspended: 'Uploads suspended',
    max_upload_mb: 'Upload size limit',
    reminders_enabled: 'Mail reminders',
    reminders_time: 'Time of the daily reminders',
  },
  zh_HK: {
    smtp_host: '郵件伺服器（SMTP 主機）',
    smtp_port: '郵件伺服器連接埠',
    smtp_user: '郵件伺服器使用者名稱',
    smtp_password: '郵件伺服器密碼',
    smtp_from: '寄件人地址',
    smtp_secure: '郵件伺服器加密方式',
    require_two_factor: '要求所有職員使用雙重認證',
    registration_enabled: '自行註冊',
    storage_quota_mb: '儲存空間配額',
    storage_suspended: '暫停上載',
    max_upload_mb: '上載檔案大小上限',
    reminders_enabled: '電郵提示',
    reminders_time: '每日提示的發送時間',
  },
};

function settingLabel(language: MailLanguage, key: string): string {
  const label = SETTING_LABELS[language][key];
  if (label) return label;
  if (key.startsWith('feature_'))
    return `${language === 'en' ? 'Feature: ' : '功能：'}${key.slice('feature_'.length)}`;
  return key;
}

/** A moment as a notice shows it: `YYYY-MM-DD HH:mm` in Hong Kong (UTC+8, no daylight saving). */
export function hongKongTime(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}

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
