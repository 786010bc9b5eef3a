import type { SesameClient } from "./client";
import type { Translations } from "./i18n";

/** What `register()` set up, shared by every element on the page. */
export interface ElementsConfig {
  client: SesameClient;
  prefix: string;
  shadow: boolean;
  lang: string | undefined;
  translations: Translations;
}

let config: ElementsConfig | undefined;
export function configure(next: ElementsConfig): void {
  config = next;
}
export function currentConfig(): ElementsConfig | undefined {
  return config;
}
