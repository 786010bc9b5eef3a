// Stand-in for the `server-only` package, whose real entry throws outside a React server bundle.
export {};
