"use client";
// Renders /v1/openapi.json with Swagger UI, loaded from the app itself (app/docs/assets).
// The script is added by this (trusted) code, which the page policy's 'strict-dynamic' allows.
import { useEffect, useRef, useState } from "react";

type SwaggerUi = (options: Record<string, unknown>) => unknown;
type OutgoingRequest = { method?: string; headers: Record<string, string> };

/** 128 random bits in hex (crypto.randomUUID needs a secure context; a plain-http deployment is none). */
const freshKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Every write that "Try it out" sends carries an Idempotency-Key: the one typed into the field,
 * or a fresh one, so that Execute twice makes two changes (a fixed key would answer 422 or replay).
 */
function withIdempotencyKey(request: OutgoingRequest): OutgoingRequest {
  const method = (request.method ?? "GET").toUpperCase();
  const given = Object.keys(request.headers).find((name) => name.toLowerCase() === "idempotency-key");
  if (method !== "GET" && method !== "HEAD" && !(given && request.headers[given]))
    request.headers["Idempotency-Key"] = freshKey();
  return request;
}

/** Names for Swagger UI's unnamed controls (what a screen reader announces). */
const CONTROL_NAMES: [selector: string, name: (control: Element) => string][] = [
  [".servers select", () => "Server"],
  ["select.examples-select-element", () => "Examples"],
  [
    "tr[data-param-name] :is(input, select, textarea)",
    (control) => control.closest("tr")!.getAttribute("data-param-name")!,
  ],
  ["textarea.body-param__text", () => "Request body"],
  ["button.close-modal", () => "Close dialog"],
];

function nameControls(root: Element) {
  for (const [selector, name] of CONTROL_NAMES) {
    for (const control of root.querySelectorAll(`${selector}:not([aria-label])`))
      control.setAttribute("aria-label", name(control));
  }
  // The request body's media type: its <label> carries the id of the select inside it.
  for (const label of root.querySelectorAll("label[id]")) {
    if (label.querySelector(`[id="${label.id}"]`)) label.removeAttribute("id");
  }
}

export function ApiReference() {
  const container = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const root = container.current!;
    const css = Object.assign(document.createElement("link"), {
      rel: "stylesheet",
      href: "/docs/assets/swagger-ui.css",
    });
    const script = Object.assign(document.createElement("script"), {
      src: "/docs/assets/swagger-ui-bundle.js",
      async: true,
    });
    script.onload = () => {
      const render = (window as unknown as { SwaggerUIBundle: SwaggerUi }).SwaggerUIBundle;
      render({
        url: "/v1/openapi.json",
        domNode: root,
        // The default validator badge would call validator.swagger.io.
        validatorUrl: null,
        deepLinking: false,
        defaultModelsExpandDepth: -1,
        docExpansion: "list",
        tryItOutEnabled: false,
        requestInterceptor: withIdempotencyKey,
      });
    };
    script.onerror = () =>
      setProblem("The API reference could not be loaded: reload the page, or read /v1/openapi.json directly.");
    // Swagger UI renders, as operations open, controls with no name and a label sharing its
    // select's id: each is repaired as it appears.
    const repair = new MutationObserver(() => nameControls(root));
    repair.observe(root, { childList: true, subtree: true });
    document.head.append(css);
    document.body.append(script);
    return () => {
      repair.disconnect();
      css.remove();
      script.remove();
    };
  }, []);
  return (
    <>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div ref={container} className="api-reference" data-testid="api-reference" />
    </>
  );
}
