// Lengths of time in milliseconds, as epoch timestamps count them: a quarter hour (the finest
// rollup grain: every time zone's offset is a multiple of it), a UTC hour and a UTC day (the unit
// of the daily rollups and of the daily visitor salts).
export const QUARTER_MS = 900_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
