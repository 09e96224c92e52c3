/**
 * Demo schools (the embedded demo only): three Seoul universities with subjects, and intakes whose application
 * windows and deadlines fall in the seed day's month and the two after it — the dates are offsets in days from
 * the seed day, at most 58 (the end of the month after next is never nearer), the semesters the next 1 March or
 * 1 September after them — so that a fresh `npm start` shows a populated schools list and calendar.
 */

interface Named {
  name_en: string;
  name_zh: string;
  name_ko: string;
}

export interface DemoSubject extends Named {
  code: string;
  faculty: string;
  degree_level: 'language' | 'bachelor' | 'master';
  duration_months: number;
  /** per semester, in won */
  tuition_won: number;
  language_of_instruction: string;
}

export interface DemoDocument {
  /** a value of the `document_type` option list (seeds/data/options.ts) */
  document_type: 'passport' | 'transcript' | 'study_plan' | 'topik_certificate' | 'bank_statement';
  name_en: string;
  name_zh: string;
  is_required: boolean;
  remark?: string;
}

export interface DemoIntake {
  /** days from the seed day */
  application_start: number;
  application_deadline: number;
  interview_date: number;
  result_date: number;
  /** the first term start (1 March or 1 September) at least 100 days after the seed day (0), or the one after (1) */
  semester: 0 | 1;
  application_fee_won: number;
  /** the subjects it opens, by code */
  subjects: string[];
  documents: DemoDocument[];
  /** one extra milestone: days from the seed day */
  timetable: { offset: number; title_en: string; title_zh: string };
}

export interface DemoSchool extends Named {
  code: string;
  /** the Seoul district it is in (seeds/data/areas.ts), by English name */
  district_en: string;
  address: string;
  website: string;
  email: string;
  phone: string;
  is_partner: boolean;
  description: string;
  subjects: DemoSubject[];
  intakes: DemoIntake[];
}

const PASSPORT: DemoDocument = {
  document_type: 'passport',
  name_en: 'Passport copy',
  name_zh: '護照副本',
  is_required: true,
};
const TRANSCRIPT: DemoDocument = {
  document_type: 'transcript',
  name_en: 'Academic transcript',
  name_zh: '成績表',
  is_required: true,
  remark: 'Certified true copy',
};
const STUDY_PLAN: DemoDocument = {
  document_type: 'study_plan',
  name_en: 'Study plan',
  name_zh: '讀書計劃',
  is_required: true,
};
const TOPIK: DemoDocument = {
  document_type: 'topik_certificate',
  name_en: 'TOPIK certificate (level 3 or above)',
  name_zh: 'TOPIK 成績證書（三級或以上）',
  is_required: false,
  remark: 'Or an English test score for English-taught programmes',
};
const BANK: DemoDocument = {
  document_type: 'bank_statement',
  name_en: 'Bank statement',
  name_zh: '銀行存款證明',
  is_required: true,
};

export const DEMO_SCHOOLS: DemoSchool[] = [
  {
    code: 'KU',
    name_en: 'Korea University',
    name_zh: '高麗大學',
    name_ko: '고려대학교',
    district_en: 'Seongbuk-gu',
    address: '145 Anam-ro, Seongbuk-gu, Seoul',
    website: 'https://www.korea.ac.kr',
    email: 'oia@korea.example',
    phone: '+82 2 3290 1152',
    is_partner: true,
    description: 'A private research university in Anam-dong, founded in 1905.',
    subjects: [
      {
        code: 'KLC-REG',
        name_en: 'Korean Language Program (regular)',
        name_zh: '韓語課程（正規班）',
        name_ko: '한국어 정규과정',
        faculty: 'Korean Language Center',
        degree_level: 'language',
        duration_months: 3,
        tuition_won: 1_850_000,
        language_of_instruction: 'Korean',
      },
      {
        code: 'BUS-BBA',
        name_en: 'Business Administration',
        name_zh: '工商管理',
        name_ko: '경영학과',
        faculty: 'Korea University Business School',
        degree_level: 'bachelor',
        duration_months: 48,
        tuition_won: 5_150_000,
        language_of_instruction: 'Korean and English',
      },
      {
        code: 'MEDIA-BA',
        name_en: 'Media and Communication',
        name_zh: '傳媒與傳播',
        name_ko: '미디어학부',
        faculty: 'School of Media and Communication',
        degree_level: 'bachelor',
        duration_months: 48,
        tuition_won: 4_620_000,
        language_of_instruction: 'Korean',
      },
    ],
    intakes: [
      {
        application_start: -20,
        application_deadline: 10,
        interview_date: 24,
        result_date: 45,
        semester: 0,
        application_fee_won: 150_000,
        subjects: ['BUS-BBA', 'MEDIA-BA'],
        documents: [PASSPORT, TRANSCRIPT, STUDY_PLAN, TOPIK],
        timetable: { offset: 15, title_en: 'Original documents by post', title_zh: '郵寄文件正本截止' },
      },
      {
        application_start: 30,
        application_deadline: 55,
        interview_date: 62,
        result_date: 75,
        semester: 1,
        application_fee_won: 60_000,
        subjects: ['KLC-REG'],
        documents: [PASSPORT, TRANSCRIPT, BANK],
        timetable: { offset: 40, title_en: 'Online briefing session', title_zh: '網上簡介會' },
      },
    ],
  },
  {
    code: 'YONSEI',
    name_en: 'Yonsei University',
    name_zh: '延世大學',
    name_ko: '연세대학교',
    district_en: 'Seodaemun-gu',
    address: '50 Yonsei-ro, Seodaemun-gu, Seoul',
    website: 'https://www.yonsei.ac.kr',
    email: 'admission@yonsei.example',
    phone: '+82 2 2123 4131',
    is_partner: true,
    description: 'A private research university in Sinchon, founded in 1885.',
    subjects: [
      {
        code: 'KLI-REG',
        name_en: 'Korean Language Institute regular course',
        name_zh: '韓國語學堂正規課程',
        name_ko: '한국어학당 정규과정',
        faculty: 'Korean Language Institute',
        degree_level: 'language',
        duration_months: 3,
        tuition_won: 1_900_000,
        language_of_instruction: 'Korean',
      },
      {
        code: 'UIC-ECON',
        name_en: 'Economics (Underwood International College)',
        name_zh: '經濟學（安德伍德國際學院）',
        name_ko: '경제학 (언더우드국제대학)',
        faculty: 'Underwood International College',
        degree_level: 'bachelor',
        duration_months: 48,
        tuition_won: 6_180_000,
        language_of_instruction: 'English',
      },
      {
        code: 'CS-BS',
        name_en: 'Computer Science',
        name_zh: '計算機科學',
        name_ko: '컴퓨터과학과',
        faculty: 'College of Computing',
        degree_level: 'bachelor',
        duration_months: 48,
        tuition_won: 5_920_000,
        language_of_instruction: 'Korean',
      },
    ],
    intakes: [
      {
        application_start: 5,
        application_deadline: 35,
        interview_date: 50,
        result_date: 70,
        semester: 0,
        application_fee_won: 170_000,
        subjects: ['UIC-ECON', 'CS-BS'],
        documents: [PASSPORT, TRANSCRIPT, STUDY_PLAN, TOPIK],
        timetable: { offset: 12, title_en: 'Online briefing session', title_zh: '網上簡介會' },
      },
    ],
  },
  {
    code: 'SKKU',
    name_en: 'Sungkyunkwan University',
    name_zh: '成均館大學',
    name_ko: '성균관대학교',
    district_en: 'Jongno-gu',
    address: '25-2 Sungkyunkwan-ro, Jongno-gu, Seoul',
    website: 'https://www.skku.edu',
    email: 'intl@skku.example',
    phone: '+82 2 760 0021',
    is_partner: false,
    description: 'A private university with its humanities campus in Myeongnyun-dong, Seoul.',
    subjects: [
      {
        code: 'SLI-REG',
        name_en: 'Sungkyun Language Institute Korean course',
        name_zh: '成均語學院韓語課程',
        name_ko: '성균어학원 한국어과정',
        faculty: 'Sungkyun Language Institute',
        degree_level: 'language',
        duration_months: 3,
        tuition_won: 1_700_000,
        language_of_instruction: 'Korean',
      },
      {
        code: 'ME-BS',
        name_en: 'Mechanical Engineering',
        name_zh: '機械工程',
        name_ko: '기계공학부',
        faculty: 'College of Engineering',
        degree_level: 'bachelor',
        duration_months: 48,
        tuition_won: 5_600_000,
        language_of_instruction: 'Korean',
      },
      {
        code: 'GSB-MBA',
        name_en: 'Master of Business Administration',
        name_zh: '工商管理碩士',
        name_ko: '경영학석사',
        faculty: 'SKK Graduate School of Business',
        degree_level: 'master',
        duration_months: 24,
        tuition_won: 9_800_000,
        language_of_instruction: 'English',
      },
    ],
    intakes: [
      {
        application_start: 28,
        application_deadline: 58,
        interview_date: 66,
        result_date: 84,
        semester: 0,
        application_fee_won: 100_000,
        subjects: ['ME-BS', 'GSB-MBA', 'SLI-REG'],
        documents: [PASSPORT, TRANSCRIPT, STUDY_PLAN],
        timetable: { offset: 45, title_en: 'Scholarship application closes', title_zh: '獎學金申請截止' },
      },
    ],
  },
];
