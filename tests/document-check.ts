// Every /v1 answer the integration suite receives is checked against the served OpenAPI
// document: its status is listed for the operation, its content type is one the operation
// declares, and a JSON body matches the declared schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1
// uses it). A route missing from the document, or a document that says something else than the
// server does, fails the test that met it.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { openApiDocument } from "../server/api/openapi";
import { routesFor } from "../server/api/routes";

type Content = Record<string, { schema?: object }>;
type Operation = { responses: Record<string, { content?: Content }> };

const doc = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();

function validatorFor(id: string, schema: object): ValidateFunction {
  let validate = validators.get(id);
  // The operation's schema with the document's components beside it, so its $refs resolve.
  if (!validate) validators.set(id, (validate = ajv.compile({ ...schema, components: doc.components })));
  return validate;
}

/** Throws when the answer is not what the document says this operation answers. */
export function checkAgainstDocument(
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  text: string,
): void {
  const pathname = new URL(path, "http://x").pathname;
  if (!pathname.startsWith("/v1/") || pathname === "/v1/openapi.json") return;
  const routePath = pathname.slice(3).replace(/\/+$/, "") || "/";
  const upper = method.toUpperCase();
  const route = routesFor(routePath).find((r) => r.method === (upper === "HEAD" ? "GET" : upper));
  if (!route) return; // 404 and 405 of paths and methods that are no operation
  const where = `${upper} ${route.path} → ${status}`;
  const op = (doc.paths?.[route.path] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
  if (!op) throw new Error(`${where}: the operation is missing from the OpenAPI document`);
  const response = op.responses[String(status)];
  if (!response)
    throw new Error(`${where}: status not documented (documented: ${Object.keys(op.responses).join(", ")})`);
  if (upper === "HEAD" || text === "") return;
  const type = (contentType ?? "").split(";")[0].trim();
  const content = response.content ?? {};
  if (!(type in content))
    throw new Error(
      `${where}: content type ${type} not documented (documented: ${Object.keys(content).join(", ") || "none"})`,
    );
  const schema = content[type].schema;
  if (type !== "application/json" || !schema) return;
  const validate = validatorFor(`${where} ${type}`, schema);
  if (!validate(JSON.parse(text)))
    throw new Error(`${where}: body does not match the document: ${ajv.errorsText(validate.errors)}`);
}
