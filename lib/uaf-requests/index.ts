export { createRequest, type CreateRequestInput } from "./create-request";
export {
  validateAppAnswer,
  validateRequest,
  type Answerer,
  type DeviceKeyInfo,
  type ValidateInput,
} from "./validate-request";
export {
  cancelRequest,
  createAppLink,
  createQrCode,
  fetchRequestForApp,
  getRequest,
  oobUrl,
  sweepOldRequests,
  toAppView,
  QR_DEFAULT_SIZE,
  type AppRequestView,
  type QrCodeOptions,
} from "./manage-requests";
export { deleteDevice, listDevices, renameDevice, toDevice, type Device } from "./devices";
export type { AuthenticatorRequest } from "./request";
export { TEST_VENDOR_ID, trustedFacetIds } from "./policy";
export { devicesOfUser } from "./user-devices";
