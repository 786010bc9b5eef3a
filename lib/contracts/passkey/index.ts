export * from "./routes";
export { SPEC_ALIASES } from "./aliases";
export { credentialDto, registrationInput, transactionDto } from "./dto";
