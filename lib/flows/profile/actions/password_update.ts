import { passwordSet } from "../password-set";

export const passwordUpdate = passwordSet("Change the password.", true);
