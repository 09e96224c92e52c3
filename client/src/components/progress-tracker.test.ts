import { createProgressTracker, PROGRESS_DELAY_MS } from './progress-tracker';

describe('progress bar tracker (spec §9: 250 ms delay)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('uses the spec delay', () => {
    expect(PROGRESS_DELAY_MS).toBe(250);
  });

  it('shows the bar only once requests have been pending for the delay, hides it when all finish', () => {
    const changes: boolean[] = [];
    const tracker = createProgressTracker((v) => changes.push(v));
    tracker.handle('start');
    jest.advanceTimersByTime(PROGRESS_DELAY_MS - 1);
    expect(changes).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(changes).toEqual([true]);
    tracker.handle('start');
    tracker.handle('finish');
    expect(changes).toEqual([true]);
    tracker.handle('finish');
    expect(changes).toEqual([true, false]);
  });

  it('never shows the bar for requests that finish before the delay', () => {
    const changes: boolean[] = [];
    const tracker = createProgressTracker((v) => changes.push(v));
    tracker.handle('start');
    jest.advanceTimersByTime(100);
    tracker.handle('finish');
    jest.advanceTimersByTime(1000);
    expect(changes).toEqual([]);
  });

  it('an unmatched finish does not drive the count negative', () => {
    const changes: boolean[] = [];
    const tracker = createProgressTracker((v) => changes.push(v));
    tracker.handle('finish');
    tracker.handle('start');
    jest.advanceTimersByTime(PROGRESS_DELAY_MS);
    expect(changes).toEqual([true]);
  });
});
