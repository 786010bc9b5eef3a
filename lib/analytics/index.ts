export { classifyEvent, LOGIN_METHODS, type LoginMethod, type Metric } from "./classify";
export type { Bucket } from "./days";
export { recordAnalytics, recordEventAnalytics } from "./record";
export { addDays, bucketStart, bucketStarts, utcDay } from "./days";
export { activeUsers, dailyTotals, totalsSince } from "./read";
