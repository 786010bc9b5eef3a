"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog, SecretOnce, useConsoleAction } from "@/components/console/client";
import { Button } from "@/components/console/ui";
import {
  deleteWebhookAction,
  replayDeliveryAction,
  rotateWebhookSecretAction,
  sendTestEventAction,
  setWebhookEnabledAction,
} from "../actions";

/** Test event, enable/disable, rotate secret (new one shown once), delete: each confirmed by a toast. */
export function WebhookControls({
  tenantId,
  webhookId,
  enabled,
}: {
  tenantId: string;
  webhookId: string;
  enabled: boolean;
}) {
  const router = useRouter();
  const [secret, setSecret] = useState<string | undefined>();
  const test = useConsoleAction(sendTestEventAction, {
    success: "Test event queued: it appears in the deliveries below",
    onSuccess: () => router.refresh(),
  });
  const toggle = useConsoleAction(setWebhookEnabledAction, {
    success: enabled ? "Webhook disabled" : "Webhook enabled",
    onSuccess: () => router.refresh(),
  });
  const rotate = useConsoleAction(rotateWebhookSecretAction, {
    success: "Secret rotated: the old one signs too for 24 hours",
    onSuccess: (data) => setSecret(data.secret),
  });
  const remove = useConsoleAction(deleteWebhookAction, {
    success: "Webhook deleted",
    onSuccess: () => router.push(`/console/tenants/${tenantId}/webhooks`),
  });
  return (
    <div className="flex flex-wrap gap-2">
      <Button disabled={test.pending} onClick={() => void test.run(tenantId, webhookId)}>
        Send test event
      </Button>
      <Button
        variant="secondary"
        disabled={toggle.pending}
        onClick={() => void toggle.run(tenantId, webhookId, !enabled)}
      >
        {enabled ? "Disable" : "Enable"}
      </Button>
      <ConfirmDialog
        trigger="Rotate secret"
        triggerVariant="secondary"
        title="Rotate the signing secret?"
        description="Sesame creates a new secret and shows it once. For 24 hours deliveries carry signatures with both the new and the old secret, so your receiver can switch without missing one."
        confirmLabel="Rotate secret"
        confirmVariant="primary"
        onConfirm={() => rotate.run(tenantId, webhookId)}
      />
      <ConfirmDialog
        trigger="Delete"
        title="Delete this webhook?"
        description="Its deliveries and their log are deleted with it, and no further events are sent. This cannot be undone."
        confirmLabel="Delete webhook"
        onConfirm={() => remove.run(tenantId, webhookId)}
      />
      {secret ? (
        <SecretOnce label="The new signing secret" value={secret} onDone={() => setSecret(undefined)} />
      ) : null}
    </div>
  );
}

/** Sends a delivery's event again, as a new delivery. */
export function ReplayButton({
  tenantId,
  webhookId,
  deliveryId,
  label,
}: {
  tenantId: string;
  webhookId: string;
  deliveryId: string;
  label: string;
}) {
  const router = useRouter();
  const replay = useConsoleAction(replayDeliveryAction, {
    success: "Replay queued: a new delivery of the same event",
    onSuccess: () => router.refresh(),
  });
  return (
    <Button
      variant="secondary"
      aria-label={label}
      disabled={replay.pending}
      onClick={() => void replay.run(tenantId, webhookId, deliveryId)}
    >
      Replay
    </Button>
  );
}

/** Loads the deliveries again (the worker sends them in the background). */
export function RefreshButton() {
  const router = useRouter();
  return (
    <Button variant="ghost" onClick={() => router.refresh()}>
      Refresh
    </Button>
  );
}
