/**
 * Types only (nothing here reaches the bundle): the elements' tags and attributes, the events on
 * `document`, and the elements as React 19 intrinsic elements (React reads them from `React.JSX`, not
 * from a global `JSX`). They go into the published `sesame-elements.d.ts` with the rest of the API.
 */
import type { DetailedHTMLProps, HTMLAttributes } from "react";
import type { EventDetails, EventKey, EVENTS } from "./events";

export interface SesameElementAttributes {
  lang?: string;
}

export interface SesameAuthAttributes extends SesameElementAttributes {
  mode?: "login" | "registration";
  /** The identifier the login's first step starts with (e.g. OpenID Connect's `login_hint`). */
  "login-hint"?: string;
}

/** The events under the default prefix `sesame`: `sesame-auth-success`, … */
export type SesameDocumentEvents = {
  [K in EventKey as `sesame-${(typeof EVENTS)[K]}`]: CustomEvent<EventDetails[K]>;
};

type ElementProps<A> = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & A;

declare global {
  interface HTMLElementTagNameMap {
    "sesame-auth": HTMLElement & SesameAuthAttributes;
    "sesame-login": HTMLElement & SesameElementAttributes;
    "sesame-registration": HTMLElement & SesameElementAttributes;
    "sesame-profile": HTMLElement & SesameElementAttributes;
    "sesame-events": HTMLElement;
  }
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the events into the DOM's map
  interface DocumentEventMap extends SesameDocumentEvents {}
}

declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React 19 reads intrinsic elements from it
  namespace JSX {
    interface IntrinsicElements {
      "sesame-auth": ElementProps<SesameAuthAttributes>;
      "sesame-login": ElementProps<SesameElementAttributes>;
      "sesame-registration": ElementProps<SesameElementAttributes>;
      "sesame-profile": ElementProps<SesameElementAttributes>;
      "sesame-events": ElementProps<object>;
    }
  }
}
