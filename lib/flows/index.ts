import type { FlowName } from "@/lib/db/schema";
import type { FlowDefinition } from "./definition";
import { FlowError } from "./errors";
import { loginFlow } from "./login/flow";
import { profileFlow } from "./profile/flow";
import { registrationFlow } from "./registration/flow";
import { tokenExchangeFlow } from "./token-exchange/flow";

export {
  finalizeAction,
  handleFlowRequest,
  parseActionParam,
  runFlowAction,
  startFlow,
  type ActionBody,
  type FlowAnswer,
} from "./engine";
export { FlowError, FLOW_ERROR_STATUS, type FlowErrorCode } from "./errors";
export { errorResponse, type FlowResponse } from "./response";
export type { FlowDefinition } from "./definition";

/** Every flow the API serves, by the name in its URL. */
export const FLOWS: Partial<Record<FlowName, FlowDefinition>> = {
  ...(loginFlow ? { login: loginFlow } : {}),
  ...(registrationFlow ? { registration: registrationFlow } : {}),
  ...(profileFlow ? { profile: profileFlow } : {}),
  token_exchange: tokenExchangeFlow,
};

/** The flow of this name; `not_found` when there is none. */
export function flowNamed(name: FlowName): FlowDefinition {
  const definition = FLOWS[name];
  if (!definition) throw new FlowError("not_found", `No flow ${name}`);
  return definition;
}
