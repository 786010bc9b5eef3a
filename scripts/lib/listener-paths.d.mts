/** Types of listener-paths.mjs (plain JavaScript for scripts/server.mjs). */
export function pathReadings(target: string | undefined): string[][] | undefined;
export function sideOf(target: string | undefined): "admin" | "shared" | "public" | "invalid";
export function answersOn(listener: "public" | "admin", target: string | undefined): boolean;
export function portProblem(text: string): string | undefined;
