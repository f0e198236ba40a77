"use client";
// Renders /v1/openapi.json with Swagger UI, loaded from the app itself (app/docs/assets).
// The script is added by this (trusted) code, which the page policy's 'strict-dynamic' allows.
import { useEffect, useRef, useState } from "react";

type SwaggerUi = (options: Record<string, unknown>) => unknown;

export function ApiReference() {
  const container = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const css = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/docs/assets/swagger-ui.css" });
    const script = Object.assign(document.createElement("script"), { src: "/docs/assets/swagger-ui-bundle.js", async: true });
    script.onload = () => {
      const render = (window as unknown as { SwaggerUIBundle: SwaggerUi }).SwaggerUIBundle;
      render({
        url: "/v1/openapi.json",
        domNode: container.current,
        // The default validator badge would call validator.swagger.io.
        validatorUrl: null,
        deepLinking: false,
        defaultModelsExpandDepth: -1,
        docExpansion: "list",
        tryItOutEnabled: false,
        // Swagger UI's server choice has no label of its own: name it for screen readers.
        onComplete: () => container.current?.querySelector(".servers select")?.setAttribute("aria-label", "Server"),
      });
    };
    script.onerror = () => setProblem("The API reference could not be loaded: reload the page, or read /v1/openapi.json directly.");
    document.head.append(css);
    document.body.append(script);
    return () => {
      css.remove();
      script.remove();
    };
  }, []);
  return (
    <>
      {problem && <p className="error" role="alert">{problem}</p>}
      <div ref={container} className="api-reference" data-testid="api-reference" />
    </>
  );
}
