/**
 * Game time. A run starts at the scenario's `startTime` (a local date-time without a zone) and
 * advances `secondsPerStep` game seconds per step; nothing here reads the wall clock. Dates are
 * computed with UTC arithmetic on the written local time, so no time zone or daylight-saving
 * rule of the host can shift them.
 */

import { DAY_NAMES, MONTH_NAMES } from '../../../common/calendar';

const SECONDS_PER_DAY = 86_400;

/** Maps step numbers and game seconds to calendar days and clock times. */
export class Clock {
  /** Epoch seconds of the start time read as UTC (a label, not an instant). */
  private readonly startEpoch: number;

  /**
   * @param startTime ISO local date-time "YYYY-MM-DDTHH:MM[:SS]" (scenario `settings.startTime`).
   * @param secondsPerStep game seconds per step (≥ 1).
   */
  constructor(
    readonly startTime: string,
    readonly secondsPerStep: number,
  ) {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(startTime);
    if (!m)
      throw new RangeError(`expected a start time like 2023-02-13T07:00:00, got ${startTime}`);
    const [, y, mo, d, h, mi, s] = m;
    this.startEpoch =
      Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0)) / 1000;
    if (!(secondsPerStep >= 1)) throw new RangeError(`bad secondsPerStep ${secondsPerStep}`);
  }

  /** Game seconds since the run started at the start of step `step`. */
  gameSecondsAt(step: number): number {
    return step * this.secondsPerStep;
  }

  /** Days since the start day's midnight (0 on the first day) at `gameSeconds`. */
  dayIndex(gameSeconds: number): number {
    return Math.floor((this.startEpoch + gameSeconds) / SECONDS_PER_DAY) - this.startDay();
  }

  /** Minutes since the day's midnight (0–1439.99…) at `gameSeconds`. */
  minuteOfDay(gameSeconds: number): number {
    const s = (this.startEpoch + gameSeconds) % SECONDS_PER_DAY;
    return s / 60;
  }

  /** Game seconds since run start of minute `minute` of day `dayIndex`. */
  gameSecondsOf(dayIndex: number, minute: number): number {
    return (this.startDay() + dayIndex) * SECONDS_PER_DAY + minute * 60 - this.startEpoch;
  }

  /** "Monday February 13, 2023". */
  dateLabel(gameSeconds: number): string {
    const d = new Date((this.startEpoch + gameSeconds) * 1000);
    return `${DAY_NAMES[d.getUTCDay()]} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
  }

  /** "Monday February 13, 2023, 07:05". */
  label(gameSeconds: number): string {
    return `${this.dateLabel(gameSeconds)}, ${clockLabel(this.minuteOfDay(gameSeconds))}`;
  }

  private startDay(): number {
    return Math.floor(this.startEpoch / SECONDS_PER_DAY);
  }
}

/** "07:05" for minute 425 of a day. */
export function clockLabel(minuteOfDay: number): string {
  const m = Math.floor(minuteOfDay);
  return `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}
