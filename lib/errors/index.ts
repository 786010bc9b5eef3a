export { ALL_ERROR_CODES, ERROR_CODES, isFault, type ErrorCode } from "./codes";
export {
  AppError,
  BadRequest,
  DatabaseUnavailable,
  NotFound,
  Unauthorized,
  ValidationFailed,
  type AppErrorOptions,
} from "./app-error";
export { formatZodIssues } from "./zod";
