import type { FlowDefinition } from "../definition";

// Being written (issue 6): the profile flow.
export const profileFlow: FlowDefinition | undefined = undefined;
