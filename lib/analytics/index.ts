export { classifyEvent, LOGIN_METHODS, type LoginMethod, type Metric } from "./classify";
export type { Bucket } from "./days";
export { recordAnalytics, recordEventAnalytics } from "./record";
export {
  lastDays,
  overviewCounts,
  tenantAnalytics,
  type AnalyticsPoint,
  type TenantAnalytics,
  type TenantOverview,
} from "./queries";
