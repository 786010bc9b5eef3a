import type { FlowDefinition } from "../definition";

// Being written (issue 6): the login flow.
export const loginFlow: FlowDefinition | undefined = undefined;
