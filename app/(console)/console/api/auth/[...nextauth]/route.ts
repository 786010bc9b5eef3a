import NextAuth from "next-auth";
import { consoleAuthOptions } from "@/lib/console/auth";

type Context = { params: Promise<{ nextauth: string[] }> };

/** next-auth 4 for the console (lib/console/auth.ts): csrf, the passkey credentials callback, sign-out. */
async function handler(req: Request, context: Context): Promise<Response> {
  return NextAuth(req as never, context as never, consoleAuthOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
