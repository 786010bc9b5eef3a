export {
  NO_SECOND_FACTORS,
  SecondFactorRequired,
  hasSecondFactor,
  requireSecondFactor,
  satisfiesSecondFactor,
  secondFactorsOf,
  type SecondFactors,
} from "./second-factors";
export {
  MAX_OTP_FAILURES,
  checkOtpCode,
  newOtpSecret,
  otpCodeMatches,
  removeOtpSecret,
  saveOtpSecret,
  findOtpSecret,
  hasOtpSecret,
  type OtpCheck,
} from "./otp";
export { deleteOtpOfUser, getOtpOfUser } from "./admin-otp";
