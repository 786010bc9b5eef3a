"use client";

import { useEffect, useRef } from "react";
import { CopyButton } from "@/components/console/client";
import { ButtonLink, Card, StartLinks, Table, Td } from "@/components/console/ui";

export interface CreatedTenant {
  id: string;
  name: string;
  keys: { id: string; name: string; prefix: string; scopes: string[]; secret: string }[];
}

/** The snippets that put the login on a page of the app, with this tenant's URL. */
export function embedSnippets(tenantUrl: string, sesameOrigin: string) {
  return {
    sesame: [
      `<script type="module">`,
      `  import { register } from "${sesameOrigin}/elements/v1/sesame-elements.js";`,
      `  await register("${tenantUrl}");`,
      `  document.addEventListener("sesame-auth-success", (event) => {`,
      `    console.log("signed in", event.detail.userId);`,
      `  });`,
      `</script>`,
      `<sesame-auth lang="en"></sesame-auth>`,
    ].join("\n"),
    hanko: [
      `// npm install @teamhanko/hanko-elements`,
      `import { register } from "@teamhanko/hanko-elements";`,
      `await register("${tenantUrl}");`,
      `// then, in your page:`,
      `// <hanko-auth></hanko-auth>`,
    ].join("\n"),
  };
}

function Snippet({ id, title, code }: { id: string; title: string; code: string }) {
  return (
    <div>
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
        <h4 id={`${id}-title`} className="text-sm font-medium text-slate-900 dark:text-white">
          {title}
        </h4>
        <CopyButton value={code} label={`Copy the ${title} snippet`} />
      </div>
      <pre
        aria-labelledby={`${id}-title`}
        tabIndex={0}
        data-testid={`snippet-${id}`}
        className="max-w-full overflow-x-auto rounded bg-slate-100 p-3 text-xs dark:bg-slate-800"
      >
        <code>{code}</code>
      </pre>
    </div>
  );
}

/**
 * The wizard's last screen: the tenant's API keys (their secrets shown this once, with the prefix the
 * keys page shows afterwards), the snippets to embed the login with this tenant's URL, and where to go next.
 */
export function NextSteps({ tenant, sesameOrigin }: { tenant: CreatedTenant; sesameOrigin: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const tenantUrl = `${sesameOrigin}/t/${tenant.id}`;
  const snippets = embedSnippets(tenantUrl, sesameOrigin);
  const hostedLogin = `${tenantUrl}/hosted/login`;
  return (
    <Card className="max-w-3xl">
      <div className="space-y-6" data-testid="next-steps">
        <div>
          <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900 dark:text-white">
            “{tenant.name}” is ready: next steps
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            Tenant URL <code className="text-xs break-all">{tenantUrl}</code>{" "}
            <CopyButton value={tenantUrl} label="Copy the tenant URL" />
          </p>
        </div>
        <section aria-labelledby="next-keys" className="space-y-2">
          <h3 id="next-keys" className="text-base font-semibold text-slate-900 dark:text-white">
            1. Keep your API keys
          </h3>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Copy them now into your server&apos;s secrets: they are shown only this once. Afterwards the keys
            page shows their prefix only.
          </p>
          <Table
            caption="The tenant's API keys"
            head={[
              "Name",
              "Prefix",
              "Key",
              <span key="copy" className="sr-only">
                Copy
              </span>,
            ]}
          >
            {tenant.keys.map((key) => (
              <tr key={key.id} data-testid="new-api-key">
                <Td className="font-medium text-slate-900 dark:text-white">{key.name}</Td>
                <Td>
                  <code className="text-xs whitespace-nowrap">{key.prefix}…</code>
                </Td>
                <Td>
                  <code data-testid="secret-value" className="text-xs break-all">
                    {key.secret}
                  </code>
                </Td>
                <Td>
                  <CopyButton value={key.secret} label={`Copy the ${key.name} key`} />
                </Td>
              </tr>
            ))}
          </Table>
        </section>
        <section aria-labelledby="next-embed" className="space-y-3">
          <h3 id="next-embed" className="text-base font-semibold text-slate-900 dark:text-white">
            2. Put the login on your page
          </h3>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            The page&apos;s origin must be one of the tenant&apos;s origins. Either element works against this
            tenant:
          </p>
          <Snippet id="sesame-auth" title="<sesame-auth>" code={snippets.sesame} />
          <Snippet id="hanko-auth" title="<hanko-auth>" code={snippets.hanko} />
        </section>
        <section aria-labelledby="next-more" className="space-y-2">
          <h3 id="next-more" className="text-base font-semibold text-slate-900 dark:text-white">
            3. Try it and read on
          </h3>
          <StartLinks hostedLogin={hostedLogin} />
        </section>
        <div className="border-t border-slate-200 pt-4 dark:border-slate-700">
          <ButtonLink href={`/console/tenants/${tenant.id}/overview`}>Go to the tenant</ButtonLink>
        </div>
      </div>
    </Card>
  );
}
