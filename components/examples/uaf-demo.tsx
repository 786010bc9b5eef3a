"use client";

import { useCallback, useEffect, useState, type FormEvent } from "react";
import {
  cancelRequest,
  deleteDevice,
  getRequestStatus,
  listDevices,
  renameDevice,
  startRequest,
  type AppLinkView,
  type DemoDevice,
  type UafOperation,
  type UafRequestView,
} from "@/app/(examples)/examples/uaf/actions";
import {
  Field,
  Panel,
  RenamableRow,
  StatusMessage,
  button,
  input,
  prettyJson,
  quietButton,
  type Message,
} from "./ui";

const POLL_MS = 1000;

const OPERATION_NAMES: Record<UafOperation, string> = {
  REG: "registration",
  AUTH: "login",
  DEREG: "deregistration",
};

const STATUS_STYLES: Record<UafRequestView["status"], string> = {
  PENDING: "bg-amber-100 text-amber-900",
  OK: "bg-emerald-100 text-emerald-900",
  FAILED: "bg-red-100 text-red-900",
  INVALIDATED: "bg-slate-200 text-slate-700",
};

interface Current {
  request: UafRequestView;
  link?: AppLinkView;
  linkError?: string;
}

export function UafDemo() {
  const [userId, setUserId] = useState("");
  const [user, setUser] = useState<string | null>(null);
  const [transaction, setTransaction] = useState("Pay EUR 25.00 to Example Shop?");
  const [message, setMessage] = useState<Message | null>(null);
  const [current, setCurrent] = useState<Current | null>(null);
  const [devices, setDevices] = useState<DemoDevice[]>([]);
  const [busy, setBusy] = useState(false);

  const refreshDevices = useCallback(async (id: string) => {
    const result = await listDevices(id);
    if (result.ok) setDevices(result.value);
    else setMessage({ text: `Could not list the authenticators: ${result.error}`, error: true });
  }, []);

  const start = async (operation: UafOperation, text?: string) => {
    const id = userId.trim();
    if (!id) {
      setMessage({ text: "Enter a user id first.", error: true });
      return;
    }
    setBusy(true);
    try {
      const result = await startRequest(operation, id, text);
      if (!result.ok) {
        setMessage({ text: result.error, error: true });
        return;
      }
      setUser(id);
      setCurrent(result.value);
      setMessage({
        text:
          operation === "DEREG"
            ? `Deregistered ${id}'s authenticators; the QR code tells the app to forget its keys`
            : `Created a ${OPERATION_NAMES[operation]} request for ${id}: answer it with the authenticator`,
      });
      await refreshDevices(id);
    } finally {
      setBusy(false);
    }
  };

  // Poll the status check every second while the request is PENDING.
  const pendingId = current?.request.status === "PENDING" ? current.request.id : null;
  useEffect(() => {
    if (!pendingId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      const result = await getRequestStatus(pendingId);
      if (stopped) return;
      if (result.ok && result.value.status !== "PENDING") {
        const request = result.value;
        setCurrent((c) => (c?.request.id === request.id ? { ...c, request } : c));
        setMessage({
          text: `The ${OPERATION_NAMES[request.operation]} request is ${request.status}`,
          error: request.status !== "OK",
        });
        await refreshDevices(request.userId);
        return;
      }
      timer = setTimeout(() => void tick(), POLL_MS);
    };
    timer = setTimeout(() => void tick(), POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [pendingId, refreshDevices]);

  const cancel = async (id: string) => {
    const result = await cancelRequest(id);
    if (!result.ok) {
      setMessage({ text: result.error, error: true });
      return;
    }
    setCurrent((c) => (c?.request.id === id ? { ...c, request: result.value } : c));
    setMessage({ text: `Cancelled: the request is ${result.value.status}` });
  };

  const register = (event: FormEvent) => {
    event.preventDefault();
    void start("REG");
  };

  const confirmTransaction = (event: FormEvent) => {
    event.preventDefault();
    void start("AUTH", transaction);
  };

  return (
    <div className="mt-8 space-y-8">
      <Panel id="uaf-user-heading" title="Your user">
        <form onSubmit={register} className="mt-3 flex flex-wrap items-center gap-2">
          <label htmlFor="uaf-user-id" className="text-sm">
            User id
          </label>
          <input
            id="uaf-user-id"
            className={input}
            placeholder="alice"
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
            required
            maxLength={128}
            autoComplete="username"
          />
          <button type="submit" className={button} disabled={busy}>
            Register authenticator
          </button>
          <button type="button" className={button} disabled={busy} onClick={() => void start("AUTH")}>
            Log in
          </button>
          <button type="button" className={button} disabled={busy} onClick={() => void start("DEREG")}>
            Deregister
          </button>
        </form>
        <form onSubmit={confirmTransaction} className="mt-3 flex flex-wrap items-center gap-2">
          <label htmlFor="uaf-transaction" className="text-sm">
            Transaction text
          </label>
          <input
            id="uaf-transaction"
            className={`${input} grow`}
            value={transaction}
            onChange={(e) => setTransaction(e.target.value)}
            required
            maxLength={200}
          />
          <button type="submit" className={button} disabled={busy}>
            Confirm transaction
          </button>
        </form>
        <StatusMessage message={message} />
      </Panel>

      {current && <RequestPanel current={current} onCancel={cancel} />}

      {user && (
        <Panel id="uaf-devices-heading" title={`Authenticators of ${user}`}>
          <div className="mt-3">
            <button type="button" className={quietButton} onClick={() => void refreshDevices(user)}>
              Refresh
            </button>
          </div>
          {devices.length === 0 ? (
            <p className="mt-3 text-sm text-slate-500">No authenticators registered.</p>
          ) : (
            <ul aria-label="Registered authenticators" className="mt-3 divide-y divide-slate-200">
              {devices.map((device) => (
                <DeviceRow
                  key={device.deviceId}
                  device={device}
                  onRename={async (name) => {
                    const result = await renameDevice(device.deviceId, name);
                    setMessage(
                      result.ok
                        ? { text: `Renamed the authenticator to ${result.value.newName}` }
                        : { text: result.error, error: true },
                    );
                    await refreshDevices(user);
                  }}
                  onDelete={async () => {
                    const result = await deleteDevice(user, device.deviceId);
                    setMessage(
                      result.ok
                        ? { text: "Deleted the registration (the app still holds its key)" }
                        : { text: result.error, error: true },
                    );
                    await refreshDevices(user);
                  }}
                />
              ))}
            </ul>
          )}
        </Panel>
      )}
    </div>
  );
}

function RequestPanel({ current, onCancel }: { current: Current; onCancel: (id: string) => Promise<void> }) {
  const { request, link, linkError } = current;
  const pending = request.status === "PENDING";
  // The app link answers once, while PENDING; a DEREG's link stays readable so the app can forget its keys.
  const showLink = link && (pending || (request.operation === "DEREG" && request.status === "OK"));
  return (
    <Panel id="uaf-request-heading" title={`Current request: ${OPERATION_NAMES[request.operation]}`}>
      <dl className="mt-3 grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1 text-sm">
        <Field id="uaf-request-operation" term="Operation">
          {request.operation}
        </Field>
        <Field id="uaf-request-id" term="Request id">
          <code>{request.id}</code>
        </Field>
        <Field id="uaf-request-user" term="User">
          {request.username} ({request.userId})
        </Field>
        <Field id="uaf-request-status" term="Status">
          <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[request.status]}`}>
            {request.status}
          </span>
        </Field>
        {request.error && (
          <Field id="uaf-request-error" term="Error">
            {request.error.code} {request.error.reason}
          </Field>
        )}
        {request.transaction !== undefined && (
          <Field id="uaf-request-transaction" term="Transaction">
            {request.transaction}
          </Field>
        )}
        <Field id="uaf-request-device" term="Device ID">
          {request.deviceID ? <code>{request.deviceID}</code> : "none yet"}
        </Field>
        <Field id="uaf-request-valid-until" term="Valid until">
          {new Date(request.validUntil).toLocaleString()}
        </Field>
      </dl>
      {pending && (
        <div className="mt-3 flex items-center gap-2">
          <button type="button" className={quietButton} onClick={() => void onCancel(request.id)}>
            Cancel
          </button>
          <span className="text-xs text-slate-500">Checking the status every second…</span>
        </div>
      )}

      {showLink && <AppLinkBlock link={link} dereg={request.operation === "DEREG"} />}
      {linkError && pending && (
        <p className="mt-3 text-sm text-red-700">Could not get the app link: {linkError}</p>
      )}

      <details className="mt-4 text-sm">
        <summary className="cursor-pointer text-slate-600">UAF request message</summary>
        <p className="mt-2 text-xs text-slate-500">
          The FIDO UAF 1.1 message the authenticator receives: header (upv, op, appID, serverData), challenge,
          username and policy.
        </p>
        <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
          {prettyJson(request.request)}
        </pre>
      </details>
    </Panel>
  );
}

function AppLinkBlock({ link, dereg }: { link: AppLinkView; dereg: boolean }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link.href);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="mt-4 flex flex-wrap items-start gap-4">
      <img
        src={link.qrCode}
        alt="QR code for the authenticator app"
        width={256}
        height={256}
        className="rounded border border-slate-200"
      />
      <div className="min-w-0 flex-1 space-y-2 text-sm">
        <p className="text-slate-600">
          {dereg
            ? "Sesame has already forgotten the keys. Scan this with the authenticator so that it forgets them too."
            : "Scan this with the authenticator app, or paste the link into the demo authenticator."}
        </p>
        <label htmlFor="uaf-app-link" className="block font-medium">
          App link
        </label>
        <input
          id="uaf-app-link"
          className={`${input} w-full font-mono text-xs`}
          value={link.href}
          readOnly
          onFocus={(e) => e.target.select()}
        />
        <div className="flex flex-wrap gap-2">
          <button type="button" className={quietButton} onClick={() => void copy()}>
            {copied ? "Copied" : "Copy link"}
          </button>
          <a
            className={quietButton}
            href={`/examples/authenticator#${encodeURIComponent(link.href)}`}
            target="_blank"
            rel="noopener"
          >
            Open in the demo authenticator
          </a>
        </div>
        <p className="text-xs text-slate-500">
          The link carries a single-use token for this request only (never the API key), valid until{" "}
          {new Date(link.validUntil).toLocaleTimeString()}.
        </p>
      </div>
    </div>
  );
}

function DeviceRow({
  device,
  onRename,
  onDelete,
}: {
  device: DemoDevice;
  onRename: (name: string) => Promise<void>;
  onDelete: () => Promise<void>;
}) {
  return (
    <RenamableRow
      label="Authenticator"
      name={device.keyName}
      maxLength={64}
      onRename={onRename}
      onDelete={onDelete}
      details={
        <>
          AAID {device.aaid}
          {device.model ? ` · ${device.model}` : ""} · registered{" "}
          {new Date(device.createdAt).toLocaleString()} · last used{" "}
          {new Date(device.lastUsage).toLocaleString()}
        </>
      }
    />
  );
}
