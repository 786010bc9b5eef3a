import { usernameSet } from "../username-set";

export const usernameCreate = usernameSet("Set a username.", false);
