import { Grid, type ThemeConfig } from 'antd';

/**
 * The portal's colours, legible by WCAG 2.1 AA (contrast ≥ 4.5:1 on white): darker secondary text and danger red
 * (the tags' orange, green and cyan texts are darkened in layout.css).
 */
const LEGIBLE: NonNullable<ThemeConfig['token']> = {
  colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
  colorTextDescription: 'rgba(0, 0, 0, 0.65)',
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorError: '#cf1322',
};

/** The menu's chosen row: dark text on a light slate. */
const MENU = {
  itemSelectedColor: '#1e293b',
  itemSelectedBg: '#e2e8f0',
  horizontalItemSelectedColor: '#1e293b',
};

/**
 * On a phone every control of the portal is at least 44 px high (a finger's size): inputs and buttons, the small
 * buttons of a confirmation too, and the menu's rows.
 */
export const TOUCH_THEME: ThemeConfig = {
  token: { ...LEGIBLE, controlHeight: 44 },
  components: { Button: { controlHeightSM: 44 }, Menu: { ...MENU, itemHeight: 48 } },
};

const WIDE_THEME: ThemeConfig = { token: LEGIBLE, components: { Menu: MENU } };

/** The portal's theme now: legible colours, and the touch sizes on a phone (below antd's `md`). */
export function usePortalTheme(): { phone: boolean; theme: ThemeConfig } {
  const screens = Grid.useBreakpoint();
  const phone = screens.md === false;
  return { phone, theme: phone ? TOUCH_THEME : WIDE_THEME };
}
