// Lengths of time in milliseconds, as epoch timestamps count them: a UTC hour and a UTC day
// (the units of the hourly and daily rollups and of the daily visitor salts).
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
