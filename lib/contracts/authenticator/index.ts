export * from "./routes";
export { requestDto, appRequestDto, deviceDto } from "./dto";
