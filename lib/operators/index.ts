export { consoleOrigin, consoleTenant, consoleUrl } from "./console-tenant";
export {
  canSeeTenant,
  countOperators,
  findOperator,
  findOperatorByEmail,
  listOperators,
  operatorActor,
  type Operator,
  type OperatorActor,
} from "./operator";
export { operatorsLog } from "./log";
export { ENROLMENT_TTL_MINUTES, issueSetupLinkIfNeeded } from "./enrolments";
export { CreateOperatorInput, createOperator } from "./create-operator";
export { UpdateOperatorInput, updateOperator } from "./update-operator";
export { removeOperator } from "./remove-operator";
export { recoverOperator } from "./recover-operator";
export {
  beginAddPasskey,
  beginEnrolment,
  beginSignIn,
  describeEnrolment,
  finishAddPasskey,
  finishEnrolment,
  finishSignIn,
  listOperatorPasskeys,
  removeOperatorPasskey,
  renameOperatorPasskey,
} from "./passkeys";
export {
  CONSOLE_SESSION_ABSOLUTE_SECONDS,
  CONSOLE_SESSION_IDLE_SECONDS,
  checkOperatorSession,
  revokeAllOperatorSessions,
  revokeOperatorSession,
  sweepOperatorRecords,
} from "./sessions";
