/** "Chrome on Windows"-style names for the browser-sessions list (a short list of the common ones). */
export function describeUserAgent(ua: string | null): {
  browser: string;
  platform: string;
  desktop: boolean;
} {
  const s = ua ?? '';
  const browser = /Edg\//.test(s)
    ? 'Edge'
    : /OPR\/|Opera/.test(s)
      ? 'Opera'
      : /Firefox\//.test(s)
        ? 'Firefox'
        : /Chrome\/|Chromium\/|CriOS\//.test(s)
          ? 'Chrome'
          : /Safari\//.test(s)
            ? 'Safari'
            : s
              ? s.split(/[\s/]/)[0].slice(0, 40)
              : 'Unknown';
  const platform = /iPhone|iPad|iPod/.test(s)
    ? 'iOS'
    : /Android/.test(s)
      ? 'Android'
      : /Windows/.test(s)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(s)
          ? 'macOS'
          : /Linux/.test(s)
            ? 'Linux'
            : 'Unknown';
  return { browser, platform, desktop: !/Mobile|Android|iPhone|iPad/.test(s) };
}
