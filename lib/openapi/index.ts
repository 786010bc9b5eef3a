export { createSurfaceDocument, documentedSurfaces } from "./create-document";
export { SURFACE_DOCUMENTS } from "./surfaces";
