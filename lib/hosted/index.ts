export { contrastRatio, hostedBranding, mix, readableOn, type HostedBranding } from "./branding";
export { hostedCsp, newNonce } from "./csp";
export { HOSTED_LANGS, isHostedLang, pickLang, preferredLang, type HostedLang } from "./lang";
export { messages, type HostedMessages } from "./messages";
export { isSameOriginNavigation, type NavigationHeaders } from "./navigation";
export { firstValue, hostedPath, isHostedPage, type HostedPage } from "./paths";
export { MAX_REDIRECT_LENGTH, safeRedirect, type RedirectTenant } from "./redirect";
