/**
 * The Content-Security-Policy of the hosted pages, with a fresh nonce per request (set by proxy.ts).
 *
 * - `script-src 'nonce-…' 'strict-dynamic'`: only scripts carrying this response's nonce run (Next.js puts
 *   it on its own scripts, read from the request's CSP header), and whatever they load themselves (Next.js'
 *   chunks, the elements bundle's `import()`); no inline script without the nonce, no `eval` (development
 *   only: React's error stacks need it). `'self'` is for browsers without `'strict-dynamic'`.
 * - `style-src 'unsafe-inline'`: the branding is a `style` attribute of custom properties and the elements
 *   put a `<style>` in their shadow roots; neither can carry a nonce.
 * - `img-src`: the tenant's logo (any `https:` host, `http:` on localhost for development) and the
 *   authenticator app's QR code (`data:`).
 * - `connect-src 'self'` (by `default-src`): the elements call only the tenant's APIs on this origin.
 * - `object-src 'none'`, `base-uri 'none'`, `form-action 'self'`, `frame-ancestors 'none'` (never framed:
 *   the profile can delete the account).
 */
export function hostedCsp(nonce: string, { development = false }: { development?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https: http://localhost:* http://127.0.0.1:*",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** 128 random bits, base64: a nonce for one response. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}
