import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '../app/store';
import { AntdProvider } from '../components/antd-provider';
import { SessionsSection } from '../features/profile/sessions-section';
import { fakeResponse, installFetch } from '../test/http-fakes';
import { formatDateTime, formatTime } from './date-time';
import { initI18n } from './i18n';

jest.setTimeout(30_000);

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('every time on screen goes through the one formatter, in Hong Kong time', () => {
  it('runs in a browser zone other than Hong Kong (a time in UTC or the browser’s zone would show)', () => {
    expect(new Date('2026-03-01T10:30:00Z').getTimezoneOffset()).not.toBe(-480);
    expect(formatDateTime('2026-03-01T10:30:00Z')).toBe('2026-03-01 18:30');
    expect(formatTime(new Date('2026-03-01T10:30:05Z'))).toBe('18:30:05');
  });

  it('no screen formats a time by itself (in UTC or in the browser’s zone)', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      if (file.endsWith(join('i18n', 'date-time.ts'))) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const where = `${relative(SRC, file)}:${i + 1}: ${line.trim()}`;
          // the browser's own zone
          if (/\.toLocale(Time|Date)?String\(\s*\)|\.toLocaleTimeString\(/.test(line)) offenders.push(where);
          // a time of day from dayjs in UTC or the browser's zone (not through inBusinessTime / dayjs.tz)
          if (/\bdayjs(\.utc)?\([^)]*\)[^;]*\.format\(\s*['"][^'"]*HH/.test(line)) offenders.push(where);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('the profile’s browser sessions show their last activity in Hong Kong time', async () => {
    initI18n('en');
    installFetch({
      'GET /api/user/sessions': fakeResponse(200, {
        items: [
          {
            id: 1,
            ip: '10.0.0.1',
            browser: 'Chrome',
            platform: 'Linux',
            is_desktop: true,
            last_active: '2026-03-01T10:30:00Z',
            is_current: true,
          },
        ],
      }),
    });
    render(
      <Provider store={makeStore('backoffice')}>
        <AntdProvider>
          <SessionsSection />
        </AntdProvider>
      </Provider>,
    );
    expect(await screen.findByText('2026-03-01 18:30')).toBeInTheDocument();
    expect(screen.queryByText('2026-03-01 10:30')).toBeNull();
  });
});
