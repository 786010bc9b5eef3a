export { consoleOrigin, consoleTenant, consoleUrl } from "./console-tenant";
export {
  CreateOperatorInput,
  ENROLMENT_TTL_MINUTES,
  UpdateOperatorInput,
  canSeeTenant,
  countOperators,
  createOperator,
  findOperator,
  findOperatorByEmail,
  issueSetupLinkIfNeeded,
  listOperators,
  operatorActor,
  operatorsLog,
  recoverOperator,
  removeOperator,
  updateOperator,
  type Operator,
  type OperatorActor,
} from "./operators";
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
} from "./passkeys";
export {
  CONSOLE_SESSION_ABSOLUTE_SECONDS,
  CONSOLE_SESSION_IDLE_SECONDS,
  checkOperatorSession,
  revokeAllOperatorSessions,
  revokeOperatorSession,
  sweepOperatorRecords,
} from "./sessions";
