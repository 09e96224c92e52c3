import type { Plugin } from 'vite';

/**
 * Accessible names in the interface language, for the three places antd's own parts name something in English:
 * - every icon is named after its drawing ("delete", "menu-fold", "close-circle"), and antd's icon-only buttons
 *   (pagination, search) are named by their icon alone;
 * - a select's clear button ("Clear"), a number input's step buttons ("Increase Value", "Decrease Value") and a
 *   colour picker's "Clear color".
 * Each reads its name from `globalThis.__accessibleNames`, which the app keeps in the interface language
 * (`client/src/components/accessible-names.ts`, the icons' names under `a11y.icons` in the catalogues).
 * A pattern that is no longer in the package (after an upgrade) fails the build, so nothing slips back silently.
 */
const REWRITES: { file: RegExp; from: string; to: string }[] = [
  {
    file: /@ant-design[\\/]icons[\\/]es[\\/]components[\\/]AntdIcon(Light)?\.js$/,
    from: '"aria-label": icon.name',
    to: '"aria-label": (globalThis.__accessibleNames?.icon(icon.name) ?? icon.name)',
  },
  {
    file: /@rc-component[\\/]select[\\/]es[\\/]hooks[\\/]useAllowClear\.js$/,
    from: "allowClearConfig.label ?? 'Clear'",
    to: "allowClearConfig.label ?? (globalThis.__accessibleNames?.clear ?? 'Clear')",
  },
  {
    file: /@rc-component[\\/]input-number[\\/]es[\\/]StepHandler\.js$/,
    from: "isUpAction ? 'Increase Value' : 'Decrease Value'",
    to: "isUpAction ? (globalThis.__accessibleNames?.increase ?? 'Increase Value') : (globalThis.__accessibleNames?.decrease ?? 'Decrease Value')",
  },
  {
    file: /antd[\\/]es[\\/]color-picker[\\/]components[\\/]ColorClear\.js$/,
    from: '"aria-label": "Clear color"',
    to: '"aria-label": (globalThis.__accessibleNames?.clearColor ?? "Clear color")',
  },
];

export function accessibleNames(): Plugin {
  const seen = new Set<number>();
  return {
    name: 'accessible-names',
    apply: 'build',
    transform(code, id) {
      const index = REWRITES.findIndex((r) => r.file.test(id.split('?')[0]));
      if (index < 0) return null;
      const rewrite = REWRITES[index];
      if (!code.includes(rewrite.from))
        this.error(`accessible-names: "${rewrite.from}" is no longer in ${id}: update the rewrite`);
      seen.add(index);
      return { code: code.split(rewrite.from).join(rewrite.to), map: null };
    },
    buildEnd(error) {
      if (error) return;
      const missing = REWRITES.filter((_, i) => !seen.has(i)).map((r) => String(r.file));
      if (missing.length) this.error(`accessible-names: no module matched ${missing.join(', ')}`);
    },
  };
}
