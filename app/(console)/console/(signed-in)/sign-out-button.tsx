"use client";

import { signOut } from "@/components/console/auth-client";
import { Button } from "@/components/console/ui";

export function SignOutButton() {
  return (
    <Button
      variant="secondary"
      onClick={async () => {
        await signOut();
        location.assign("/console/sign-in?signed_out=1");
      }}
    >
      Sign out
    </Button>
  );
}
