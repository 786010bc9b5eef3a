import { fetchRequestForApp, toAppView, validateAppAnswer } from "@/lib/uaf-requests";
import { answerAppRequest, appRequestDto, fetchAppRequest } from "@/lib/contracts/authenticator";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /v1/uaf/app/requests/{id}?token=…: the authenticator app fetches the request it scanned
export const GET = route(fetchAppRequest, async ({ params, query, audit }) => {
  const { request } = await fetchRequestForApp(params.id, query.token ?? "", {
    ...audit,
    actor: "oob_token",
  });
  return json(appRequestDto(request), 200, { "cache-control": "no-store" });
});

// PUT /v1/uaf/app/requests/{id}?token=…: the app answers it (once)
export const PUT = route(answerAppRequest, async ({ params, query, body, audit }) => {
  const request = await validateAppAnswer(params.id, query.token ?? "", body, audit);
  return json(appRequestDto(toAppView(request)));
});
