/** `preflight`: where every flow but `token_exchange` starts; never returned to by `back`. */
export const preflightState = { actions: ["register_client_capabilities"], transient: true } as const;
