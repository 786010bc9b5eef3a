import type { ActionDefinition } from "@/lib/flows/definition";
import { previousState } from "../stash";

/** `back`, except to `passcode_confirmation` once the code is used (Hanko: it would mail another one). */
export const back: ActionDefinition = {
  description: "Navigate one step back.",
  available: (ctx) => ctx.history.length > 0 && previousState(ctx) !== "passcode_confirmation",
  run: async () => ({ back: true }),
};
