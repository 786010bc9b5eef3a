import { passwordSet } from "../password-set";

export const passwordCreate = passwordSet("Set a password.", false);
