import { AppError } from "@/lib/errors";
import { FlowError, type FlowErrorCode } from "@/lib/flows/errors";

/** A domain refusal (409) answers as a refused operation; everything else as it is. */
export async function domain<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AppError && !(error instanceof FlowError) && error.status === 409) {
      const message = [error.message, ...error.details].join(": ");
      throw new FlowError("operation_not_permitted_error", message, { cause: error });
    }
    throw error;
  }
}

/** A domain validation failure (400) as an error on the input it concerns. */
export async function onInput<T>(input: string, code: FlowErrorCode, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AppError && !(error instanceof FlowError) && error.status === 400) {
      throw new FlowError(code, [error.message, ...error.details].join(": "), { input, cause: error });
    }
    throw error;
  }
}
