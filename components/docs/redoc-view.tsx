"use client";

import Script from "next/script";
import { useEffect, useRef, useState } from "react";

declare global {
  interface Window {
    Redoc?: { init(specUrl: string, options: Record<string, unknown>, element: HTMLElement | null): void };
  }
}

/** Renders one OpenAPI document with the locally served Redoc bundle. */
export function RedocView({ specUrl }: { specUrl: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    if (!loaded && !window.Redoc) return;
    window.Redoc?.init(specUrl, { hideDownloadButton: false, expandResponses: "200" }, container.current);
  }, [loaded, specUrl]);

  return (
    <>
      <Script src="/docs/redoc.js" strategy="afterInteractive" onReady={() => setLoaded(true)} />
      <div ref={container} data-testid="redoc" />
    </>
  );
}
