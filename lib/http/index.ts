export { defineContract, SURFACES, type Contract, type Surface } from "./contract";
export { route, type RouteInput } from "./route";
export { MAX_BODY_BYTES } from "./body";
export { presentError } from "./presenters";
