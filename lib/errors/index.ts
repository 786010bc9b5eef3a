export { ERROR_STATUS, STATUS_TEXT, statusOf, type ErrorCode } from "./codes";
export {
  AppError,
  BadRequest,
  Conflict,
  DatabaseUnavailable,
  NotFound,
  Unauthorized,
  ValidationFailed,
  type AppErrorOptions,
} from "./app-error";
export { formatZodIssues } from "./zod";
