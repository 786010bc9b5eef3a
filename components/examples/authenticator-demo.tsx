"use client";

import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import {
  approveLink,
  newAuthenticatorState,
  openLink,
  type RequestDescription,
} from "@/app/(examples)/examples/authenticator/actions";
import type { SoftwareAuthenticatorState } from "@/lib/ceremonies/uaf";
import { Field, Panel, StatusMessage, button, input, quietButton, type Message } from "./ui";

/** Where this demo keeps the authenticator, private keys included: fine for a demo, never for real keys. */
const STORAGE_KEY = "sesame.examples.authenticator";

const ASKS: Record<RequestDescription["operation"], string> = {
  REG: "asks you to register a new key",
  AUTH: "asks you to log in",
  DEREG: "asks you to forget your keys",
};

function readStored(text: string | null): SoftwareAuthenticatorState | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as SoftwareAuthenticatorState;
  } catch {
    return null;
  }
}

export function AuthenticatorDemo({ facetId }: { facetId: string }) {
  const [state, setState] = useState<SoftwareAuthenticatorState | null>(null);
  const [link, setLink] = useState("");
  const [opened, setOpened] = useState<{ link: string; request: RequestDescription } | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const started = useRef(false);

  const save = useCallback((next: SoftwareAuthenticatorState) => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    setState(next);
  }, []);

  const create = useCallback(async () => {
    const result = await newAuthenticatorState();
    if (result.ok) save(result.value);
    else setMessage({ text: result.error, error: true });
    return result.ok;
  }, [save]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const stored = readStored(localStorage.getItem(STORAGE_KEY));
    if (stored) setState(stored);
    else void create();
    // "Open in the demo authenticator" passes the link in the fragment, which never reaches a server.
    const fromFragment = decodeURIComponent(window.location.hash.slice(1));
    if (fromFragment) {
      setLink(fromFragment);
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
  }, [create]);

  // Another tab of this demo changed the authenticator.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== STORAGE_KEY) return;
      const next = readStored(event.newValue);
      if (next) setState(next);
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const open = async (text: string) => {
    if (!state) return;
    setBusy(true);
    setOpened(null);
    try {
      const result = await openLink(state, text);
      if (!result.ok) {
        setMessage({ text: result.error, error: true });
        return;
      }
      setOpened({ link: text, request: result.value });
      setMessage(null);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void open(link);
  };

  const approve = async () => {
    if (!state || !opened) return;
    setBusy(true);
    try {
      const result = await approveLink(state, opened.link);
      if (!result.ok) {
        setMessage({ text: result.error, error: true });
        return;
      }
      const { state: next, status, error, removed } = result.value;
      save(next);
      setOpened(null);
      setLink("");
      const forgot = removed !== undefined ? `forgot ${removed} ${removed === 1 ? "key" : "keys"}; ` : "";
      const failure = error ? ` (${error.code} ${error.reason})` : "";
      setMessage({
        text: `Approved: ${forgot}the request is ${status ?? "unknown"}${failure}`,
        error: status !== "OK",
      });
    } finally {
      setBusy(false);
    }
  };

  const decline = () => {
    setOpened(null);
    setMessage({
      text: "Declined: nothing was sent; the request stays PENDING until it is cancelled or expires",
    });
  };

  const reset = async () => {
    setOpened(null);
    if (await create()) setMessage({ text: "Reset: a new authenticator without keys" });
  };

  return (
    <div className="mt-8 space-y-8">
      <Panel id="authenticator-link-heading" title="Scan a QR code">
        <form onSubmit={submit} className="mt-3 flex flex-wrap items-center gap-2">
          <label htmlFor="authenticator-link" className="text-sm">
            Link from the QR code
          </label>
          <input
            id="authenticator-link"
            className={`${input} grow font-mono text-xs`}
            placeholder="http://…/v1/uaf/app/requests/…?token=…"
            value={link}
            onChange={(e) => setLink(e.target.value)}
            required
            maxLength={2048}
            autoComplete="off"
          />
          <button type="submit" className={button} disabled={busy || !state}>
            Open
          </button>
        </form>
        <CameraScanner
          onScan={(text) => {
            setLink(text);
            void open(text);
          }}
        />
        <StatusMessage message={message} />
      </Panel>

      {opened && (
        <RequestPanel request={opened.request} busy={busy} onApprove={approve} onDecline={decline} />
      )}

      <KeysPanel state={state} facetId={facetId} onReset={reset} />
    </div>
  );
}

function RequestPanel({
  request,
  busy,
  onApprove,
  onDecline,
}: {
  request: RequestDescription;
  busy: boolean;
  onApprove: () => Promise<void>;
  onDecline: () => void;
}) {
  const answerable = request.status === "PENDING" || request.operation === "DEREG";
  return (
    <Panel
      id="authenticator-request-heading"
      title={`${request.relyingParty.name} ${request.transactionText !== undefined ? "asks you to confirm a transaction" : ASKS[request.operation]}`}
    >
      {request.transactionText !== undefined && (
        <blockquote
          aria-label="Transaction text"
          className="mt-3 rounded border-l-4 border-amber-400 bg-amber-50 p-3 text-base font-medium"
        >
          {request.transactionText}
        </blockquote>
      )}
      <dl className="mt-3 grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1 text-sm">
        <Field id="authenticator-request-operation" term="Operation">
          {request.operation}
        </Field>
        <Field id="authenticator-request-rp" term="Relying party">
          {request.relyingParty.name} ({request.relyingParty.id})
        </Field>
        <Field id="authenticator-request-username" term="Username">
          {request.username}
        </Field>
        <Field id="authenticator-request-appid" term="AppID">
          {request.appID}
        </Field>
        <Field id="authenticator-request-status" term="Request status">
          {request.status}
          {request.error ? ` (${request.error.code} ${request.error.reason})` : ""}
        </Field>
        <Field id="authenticator-request-valid-until" term="Valid until">
          {new Date(request.validUntil).toLocaleString()}
        </Field>
      </dl>
      <p className="mt-3 text-sm text-slate-600">
        {request.operation === "REG" &&
          `Approve to create a key for ${request.username}, scoped to this AppID, and register it.`}
        {request.operation === "AUTH" &&
          (request.keysForApp > 0
            ? `Approve to sign with your key for this AppID${request.transactionText !== undefined ? ", confirming the text above" : ""}.`
            : "This authenticator holds no key for this AppID: approving will fail.")}
        {request.operation === "DEREG" &&
          `The relying party has removed the registration. Approve to forget ${request.keysForApp} ${request.keysForApp === 1 ? "key" : "keys"} for this AppID here too.`}
      </p>
      {answerable ? (
        <div className="mt-3 flex gap-2">
          <button type="button" className={button} disabled={busy} onClick={() => void onApprove()}>
            Approve
          </button>
          <button type="button" className={quietButton} disabled={busy} onClick={onDecline}>
            Decline
          </button>
        </div>
      ) : (
        <p className="mt-3 text-sm text-slate-500">
          This request is {request.status}: there is nothing to answer.
        </p>
      )}
    </Panel>
  );
}

function KeysPanel({
  state,
  facetId,
  onReset,
}: {
  state: SoftwareAuthenticatorState | null;
  facetId: string;
  onReset: () => Promise<void>;
}) {
  return (
    <Panel id="authenticator-keys-heading" title="This authenticator">
      {!state ? (
        <p className="mt-3 text-sm text-slate-500">Creating the authenticator…</p>
      ) : (
        <>
          <dl className="mt-3 grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1 text-sm">
            <Field id="authenticator-aaid" term="AAID">
              {state.aaid}
            </Field>
            <Field id="authenticator-facet" term="FacetID">
              {state.facetId}
            </Field>
            <Field id="authenticator-attestation" term="Attestation">
              {state.attestation.type === "basic_full" ? "basic full" : "basic surrogate"}
            </Field>
          </dl>
          {state.facetId !== facetId && (
            <p role="alert" className="mt-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
              This authenticator claims the FacetID {state.facetId}, but this Sesame trusts {facetId}. Press
              Reset to start over with the right one.
            </p>
          )}
          <h3 className="mt-4 text-sm font-medium">Keys held</h3>
          {state.keys.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">No keys.</p>
          ) : (
            <ul aria-label="Keys held" className="mt-2 divide-y divide-slate-200">
              {state.keys.map((key) => (
                <li key={key.keyId} aria-label={`Key for ${key.username}`} className="py-2 text-sm">
                  <span className="font-medium">{key.username}</span>{" "}
                  <code className="text-xs text-slate-500">{key.keyId.slice(0, 16)}…</code>
                  <span className="block text-xs text-slate-500">
                    AppID {key.appID} · signed {key.signCounter} {key.signCounter === 1 ? "time" : "times"} ·
                    created {new Date(key.createdAt).toLocaleString()}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <div className="mt-3">
        <button type="button" className={quietButton} onClick={() => void onReset()}>
          Reset
        </button>
      </div>
    </Panel>
  );
}

/** The parts of the Barcode Detection API used here (Chromium on Android, macOS and ChromeOS). */
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

function barcodeDetector(): BarcodeDetectorClass | undefined {
  return (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
}

/** Optional: scan the QR code with the camera where the browser can detect QR codes. */
function CameraScanner({ onScan }: { onScan: (text: string) => void }) {
  const [supported, setSupported] = useState(false);
  const [scanning, setScanning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const latestOnScan = useRef(onScan);
  useEffect(() => {
    latestOnScan.current = onScan;
  });

  useEffect(() => {
    const Detector = barcodeDetector();
    if (!Detector || !navigator.mediaDevices?.getUserMedia) return;
    Detector.getSupportedFormats()
      .then((formats) => setSupported(formats.includes("qr_code")))
      .catch(() => setSupported(false));
  }, []);

  useEffect(() => {
    const Detector = barcodeDetector();
    if (!scanning || !Detector) return;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const detector = new Detector({ formats: ["qr_code"] });
    const look = async () => {
      if (stopped || !video.current) return;
      const [code] = await detector.detect(video.current).catch(() => []);
      if (stopped) return;
      if (code?.rawValue) {
        setScanning(false);
        latestOnScan.current(code.rawValue);
        return;
      }
      timer = setTimeout(() => void look(), 250);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "environment" } })
      .then(async (media) => {
        stream = media;
        if (stopped || !video.current) return;
        video.current.srcObject = media;
        await video.current.play();
        void look();
      })
      .catch((reason: unknown) => {
        setError(`No camera: ${(reason as Error).message}`);
        setScanning(false);
      });
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [scanning]);

  if (!supported) return null;
  return (
    <div className="mt-3 space-y-2">
      <button
        type="button"
        className={quietButton}
        onClick={() => {
          setError(null);
          setScanning((value) => !value);
        }}
      >
        {scanning ? "Stop the camera" : "Scan with the camera"}
      </button>
      {scanning && <video ref={video} muted playsInline className="w-64 rounded border border-slate-200" />}
      {error && <p className="text-sm text-red-700">{error}</p>}
    </div>
  );
}
