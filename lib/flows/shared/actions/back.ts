import type { ActionDefinition } from "@/lib/flows/definition";

export const back: ActionDefinition = {
  description: "Go back to the previous state.",
  available: (ctx) => ctx.history.length > 0,
  run: async () => ({ back: true }),
};
