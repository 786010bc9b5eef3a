import type { ReactNode } from "react";
import type { AdminUser } from "@/lib/accounts";
import { Badge, Details, Time } from "@/components/console/ui";
import { ProfileForm } from "./profile-form";
import { Section, none } from "./section";

/** The user's profile: id, username and name (editable), dates, password and authenticator app. */
export function ProfileSection({
  tenantId,
  admin,
  canWrite,
  usernamesEnabled,
}: {
  tenantId: string;
  admin: AdminUser;
  canWrite: boolean;
  usernamesEnabled: boolean;
}) {
  const { user, password, otp } = admin;
  return (
    <Section title="Profile">
      <Details
        items={[
          ["User id", <code key="id">{user.id}</code>],
          ...(canWrite
            ? []
            : ([
                ["Username", user.username ?? none("none")],
                ["Name", user.name ?? none("none")],
              ] as [string, ReactNode][])),
          [
            "Status",
            user.lockedAt ? (
              <span key="status">
                <Badge tone="red">locked</Badge> since <Time value={user.lockedAt} />
              </span>
            ) : (
              <Badge key="status" tone="green">
                active
              </Badge>
            ),
          ],
          ["Last sign-in", user.lastSignInAt ? <Time key="last" value={user.lastSignInAt} /> : none("never")],
          ["Created", <Time key="created" value={user.createdAt} />],
          ["Updated", <Time key="updated" value={user.updatedAt} />],
          [
            "Password",
            password ? (
              <span key="pw">
                <Badge tone="green">set</Badge> changed <Time value={password.updatedAt} />
              </span>
            ) : (
              none("none")
            ),
          ],
          [
            "Authenticator app (OTP)",
            otp ? (
              <span key="otp">
                <Badge tone="green">set up</Badge> on <Time value={otp.createdAt} />
              </span>
            ) : (
              none("none")
            ),
          ],
        ]}
      />
      {canWrite ? (
        <ProfileForm
          tenantId={tenantId}
          userId={user.id}
          username={user.username ?? ""}
          name={user.name ?? ""}
          usernamesEnabled={usernamesEnabled}
        />
      ) : null}
    </Section>
  );
}
