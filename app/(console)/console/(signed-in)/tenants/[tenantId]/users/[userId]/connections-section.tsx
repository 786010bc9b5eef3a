import type { AdminUser } from "@/lib/accounts";
import type { Device } from "@/lib/uaf-requests";
import { Badge, EmptyState, Table, Td, Time } from "@/components/console/ui";
import { Section, none } from "./section";

/** Third-party and SAML identities of the user (read-only). */
export function IdentitiesSection({ identities }: { identities: AdminUser["identities"] }) {
  return (
    <Section title="Connected accounts" count={identities.length}>
      {identities.length === 0 ? (
        <EmptyState
          title="No connected accounts"
          description="They appear when the user signs in with a third-party provider or through SAML single sign-on."
        />
      ) : (
        <Table caption="Connected accounts" head={["Provider", "Account", "Email", "Connected"]}>
          {identities.map((identity) => (
            <tr key={identity.id} data-testid="identity-row">
              <Td>
                {identity.kind === "saml" ? "SAML" : identity.providerId}{" "}
                {identity.kind === "saml" ? <code className="text-xs">{identity.providerId}</code> : null}
              </Td>
              <Td className="break-all font-mono text-xs">{identity.subject}</Td>
              <Td className="break-all">
                {identity.email ?? none("none")}{" "}
                {identity.email ? (
                  identity.emailVerified ? (
                    <Badge tone="green">verified by provider</Badge>
                  ) : (
                    <Badge tone="amber">unverified</Badge>
                  )
                ) : null}
              </Td>
              <Td className="whitespace-nowrap">
                <Time value={identity.createdAt} />
              </Td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

/** UAF authenticators registered through the Authenticator API (read-only). */
export function DevicesSection({ devices }: { devices: Device[] }) {
  return (
    <Section title="UAF devices" count={devices.length}>
      {devices.length === 0 ? (
        <EmptyState title="No UAF devices" description="Registered through the Authenticator API." />
      ) : (
        <Table caption="UAF devices" head={["Key name", "AAID", "Device", "Created", "Last used"]}>
          {devices.map((device) => (
            <tr key={device.deviceId}>
              <Td className="break-all">{device.keyName}</Td>
              <Td className="font-mono text-xs">{device.aaid}</Td>
              <Td>
                {[device.manufacturer, device.model, device.deviceOs, device.osVersion]
                  .filter(Boolean)
                  .join(" ") || none("unknown")}
              </Td>
              <Td className="whitespace-nowrap">
                <Time value={device.createdAt} />
              </Td>
              <Td className="whitespace-nowrap">
                <Time value={device.lastUsage} />
              </Td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}
