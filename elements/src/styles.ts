/**
 * The elements' look: every colour, radius and font is a CSS custom property with a default, and the
 * main parts carry `part` names for `::part()`. `HOST` stands for `:host` in a shadow root and for the
 * element names in the light-DOM mode (where these rules sit in one <style> in the document head).
 */
export const TAGS = ["sesame-auth", "sesame-login", "sesame-registration", "sesame-profile"] as const;

export const CSS = `
HOST {
  display: block;
  font-family: var(--sesame-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  color: var(--sesame-color-text, #0f172a);
  line-height: 1.5;
}
.sesame-container {
  box-sizing: border-box;
  max-width: var(--sesame-container-max-width, 26rem);
  padding: var(--sesame-container-padding, 1.5rem);
  background: var(--sesame-color-background, #ffffff);
  border: 1px solid var(--sesame-color-border, #cbd5e1);
  border-radius: var(--sesame-radius, 0.5rem);
}
.sesame-container * { box-sizing: border-box; }
.sesame-headline { font-size: 1.35rem; font-weight: 600; margin: 0 0 1rem; }
.sesame-subheadline { font-size: 1.05rem; font-weight: 600; margin: 1.25rem 0 0.5rem; }
.sesame-paragraph { margin: 0 0 0.75rem; }
.sesame-form { display: flex; flex-direction: column; gap: 0.5rem; margin: 0 0 0.75rem; }
.sesame-label { font-size: 0.9rem; font-weight: 500; }
.sesame-input {
  width: 100%;
  padding: 0.55rem 0.7rem;
  font: inherit;
  color: var(--sesame-color-text, #0f172a);
  background: var(--sesame-color-input-background, #ffffff);
  border: 1px solid var(--sesame-color-border, #94a3b8);
  border-radius: var(--sesame-radius, 0.5rem);
}
.sesame-input[aria-invalid="true"] { border-color: var(--sesame-color-error, #b91c1c); }
.sesame-button {
  display: inline-flex;
  justify-content: center;
  align-items: center;
  gap: 0.4rem;
  width: 100%;
  padding: 0.6rem 0.9rem;
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  border-radius: var(--sesame-radius, 0.5rem);
  border: 1px solid var(--sesame-color-primary, #4f46e5);
  background: var(--sesame-color-primary, #4f46e5);
  color: var(--sesame-color-primary-text, #ffffff);
}
.sesame-button.sesame-secondary {
  background: transparent;
  color: var(--sesame-color-secondary-text, var(--sesame-color-text, #0f172a));
  border-color: var(--sesame-color-border, #94a3b8);
}
.sesame-button.sesame-danger {
  background: transparent;
  color: var(--sesame-color-error, #b91c1c);
  border-color: var(--sesame-color-error, #b91c1c);
}
.sesame-button.sesame-small { width: auto; padding: 0.3rem 0.6rem; font-size: 0.875rem; font-weight: 500; }
.sesame-button[disabled] { opacity: 0.6; cursor: progress; }
.sesame-link {
  font: inherit;
  background: none;
  border: none;
  padding: 0;
  cursor: pointer;
  color: var(--sesame-color-link, var(--sesame-color-primary, #4338ca));
  text-decoration: underline;
}
.sesame-button:focus-visible, .sesame-link:focus-visible, .sesame-input:focus-visible {
  outline: 3px solid var(--sesame-color-focus, #2563eb);
  outline-offset: 2px;
}
.sesame-actions { display: flex; flex-direction: column; gap: 0.5rem; }
.sesame-divider { text-align: center; margin: 0.75rem 0; color: var(--sesame-color-muted, #475569); font-size: 0.9rem; }
.sesame-error {
  margin: 0 0 0.75rem;
  padding: 0.6rem 0.75rem;
  border-radius: var(--sesame-radius, 0.5rem);
  border: 1px solid var(--sesame-color-error, #b91c1c);
  color: var(--sesame-color-error, #b91c1c);
  background: var(--sesame-color-error-background, #fef2f2);
}
.sesame-input-error { color: var(--sesame-color-error, #b91c1c); font-size: 0.875rem; margin: 0; }
.sesame-footer { margin-top: 1rem; font-size: 0.95rem; }
.sesame-list { list-style: none; margin: 0 0 0.75rem; padding: 0; display: flex; flex-direction: column; gap: 0.5rem; }
.sesame-item {
  display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem;
  padding: 0.5rem 0.6rem;
  border: 1px solid var(--sesame-color-border, #cbd5e1);
  border-radius: var(--sesame-radius, 0.5rem);
}
.sesame-item-name { flex: 1 1 10rem; overflow-wrap: anywhere; }
.sesame-badge { font-size: 0.8rem; color: var(--sesame-color-muted, #475569); }
.sesame-inline-form { display: flex; flex-wrap: wrap; gap: 0.4rem; width: 100%; }
.sesame-inline-form .sesame-input { flex: 1 1 10rem; width: auto; }
.sesame-visually-hidden {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0;
}
@media (prefers-reduced-motion: no-preference) {
  .sesame-button { transition: filter 120ms ease; }
  .sesame-button:hover { filter: brightness(0.95); }
}
`;

export function cssFor(host: string): string {
  return CSS.replaceAll("HOST", host);
}
