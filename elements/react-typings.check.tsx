/**
 * Type-level test of elements/sesame-elements.d.ts in React 19 (checked by `tsc --noEmit`, never run):
 * the elements are intrinsic JSX elements with typed attributes, and the events are typed on `document`.
 */
import type { AuthSuccessDetail, RegisterOptions } from "./sesame-elements";

export const options: RegisterOptions = { eventPrefix: "sesame", shadow: false, lang: "de" };

export function SignIn() {
  document.addEventListener("sesame-auth-success", (event) => {
    const detail: AuthSuccessDetail = event.detail;
    return detail.userId;
  });
  // @ts-expect-error -- `mode` is login or registration
  const wrongMode = <sesame-auth mode="signup" />;
  return (
    <>
      <sesame-auth lang="de" mode="registration" />
      <sesame-profile lang="en" />
      <sesame-events />
      {wrongMode}
    </>
  );
}
