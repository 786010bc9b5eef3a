import { usernameSet } from "../username-set";

export const usernameUpdate = usernameSet("Change the username.", true);
