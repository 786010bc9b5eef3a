export * from "./routes";
export { SPEC_ALIASES } from "./aliases";
export { credentialDto, transactionDto } from "./dto";
