import { Badge } from "@/components/console/ui";

/** A webhook's state as the operator needs it: enabled, failing (since when), or disabled (why). */
export function WebhookState({
  enabled,
  failures,
  failingSince,
}: {
  enabled: boolean;
  failures: number;
  failingSince: Date | null;
}) {
  if (!enabled)
    return failingSince ? (
      <Badge tone="red">Disabled after {failures} failures</Badge>
    ) : (
      <Badge tone="neutral">Disabled</Badge>
    );
  if (failures > 0)
    return (
      <Badge tone="amber">
        Failing: {failures} {failures === 1 ? "failure" : "failures"}
      </Badge>
    );
  return <Badge tone="green">Enabled</Badge>;
}
