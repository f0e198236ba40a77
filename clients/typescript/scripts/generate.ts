// Regenerates src/schema.d.ts from the document the server serves at GET /v1/openapi.json,
// built in this process from server/api/openapi.ts: no running server needed.
import { writeFileSync } from "node:fs";
import { openApiDocument } from "../../../server/api/openapi";
import { renderTypes } from "./render-types";

const target = new URL("../src/schema.d.ts", import.meta.url);
writeFileSync(target, await renderTypes(openApiDocument()));
console.log(`wrote ${target.pathname}`);
process.exit(0); // the server modules may leave handles (Redis, timers) open
