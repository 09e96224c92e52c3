interface Place {
  name_en: string;
  name_zh: string;
  name_ko: string;
}

/** Korean cities where partner schools are, with their districts. */
export const AREAS: (Place & { districts: Place[] })[] = [
  {
    name_en: 'Seoul',
    name_zh: '首爾',
    name_ko: '서울',
    districts: [
      { name_en: 'Gangnam-gu', name_zh: '江南區', name_ko: '강남구' },
      { name_en: 'Jongno-gu', name_zh: '鍾路區', name_ko: '종로구' },
      { name_en: 'Mapo-gu', name_zh: '麻浦區', name_ko: '마포구' },
      { name_en: 'Seodaemun-gu', name_zh: '西大門區', name_ko: '서대문구' },
      { name_en: 'Seongbuk-gu', name_zh: '城北區', name_ko: '성북구' },
    ],
  },
  {
    name_en: 'Busan',
    name_zh: '釜山',
    name_ko: '부산',
    districts: [
      { name_en: 'Haeundae-gu', name_zh: '海雲臺區', name_ko: '해운대구' },
      { name_en: 'Busanjin-gu', name_zh: '釜山鎮區', name_ko: '부산진구' },
    ],
  },
  { name_en: 'Incheon', name_zh: '仁川', name_ko: '인천', districts: [{ name_en: 'Yeonsu-gu', name_zh: '延壽區', name_ko: '연수구' }] },
  { name_en: 'Daejeon', name_zh: '大田', name_ko: '대전', districts: [{ name_en: 'Yuseong-gu', name_zh: '儒城區', name_ko: '유성구' }] },
  { name_en: 'Daegu', name_zh: '大邱', name_ko: '대구', districts: [] },
];
