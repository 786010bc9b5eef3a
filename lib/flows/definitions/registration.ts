import type { FlowDefinition } from "../definition";

// Being written (issue 6): the registration flow.
export const registrationFlow: FlowDefinition | undefined = undefined;
