// `npm run build` first builds the elements bundle, then runs `next build`.
import { buildElements } from "./lib/elements";

await buildElements();
