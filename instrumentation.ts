/**
 * Next.js calls register() once when a server process starts, before it serves requests: Sesame opens
 * and migrates its database here (lib/boot), so the first request does not pay for it.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs" && process.env.NEXT_PHASE !== "phase-production-build") {
    const { bootOrExit } = await import("./lib/boot");
    await bootOrExit();
  }
}
