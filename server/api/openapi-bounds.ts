// Bounds the server enforces in code (refinements, opaque ids, fixed patterns) written into the
// OpenAPI document, so that a client validating before it sends refuses what the server would,
// and the OWASP rules on unbounded input hold (tests/api/openapi-lint.spectral.yaml).
import { MAX_ZIP_IDS } from "../images/imagesZip";
import { FRAME_TEXT_MAX } from "../images/qrStyle";

/** No control characters (line breaks, tabs, NUL): names and frame text refuse them. */
const PRINTABLE = "^[^\\u0000-\\u001f\\u007f-\\u009f]+$";
const ID = { maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" };

/** Query and path parameters by name: opaque ids and cursors as the service issues them, IANA zone names, ZIP id lists. */
const PARAMETERS: Record<string, object> = {
  cursor: ID,
  qr_id: ID,
  webhook_id: ID,
  delivery_id: ID,
  tz: { maxLength: 64, pattern: "^[A-Za-z0-9_+/-]+$" },
  // At most MAX_ZIP_IDS ids of at most 64 characters, comma-separated (spaces around them trimmed).
  ids: { maxLength: MAX_ZIP_IDS * 66, pattern: "^[A-Za-z0-9_,\\s-]*$" },
};

/** Lengths a fixed pattern or format already implies, said outright. */
const IMPLIED_LENGTH: Record<string, number> = {
  "^#[0-9a-fA-F]{6}$": 7,
  "^[A-Z]{2}$": 2,
  "format:date": 10,
};

/** Fields of the request bodies, by their path in the Style and record schemas. */
const FIELDS: [path: string[], bounds: object][] = [
  [["Style", "frame", "text"], { maxLength: FRAME_TEXT_MAX, pattern: PRINTABLE }],
  [["Style", "logo"], { pattern: "^data:image/(png|svg\\+xml);base64,[A-Za-z0-9+/]*={0,2}$" }],
];

type Schema = {
  type?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  properties?: Record<string, Schema>;
};
const INT32 = 2 ** 31 - 1;

/** Every integer gets its format (int32 when its bounds fit, else int64), every fixed pattern its length. */
function walk(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(walk);
  if (!node || typeof node !== "object") return;
  const schema = node as Schema;
  if (schema.type === "integer" && !schema.format) {
    const fits =
      schema.minimum !== undefined &&
      schema.maximum !== undefined &&
      schema.minimum >= -INT32 - 1 &&
      schema.maximum <= INT32;
    schema.format = fits ? "int32" : "int64";
  }
  if (schema.type === "string" && schema.maxLength === undefined) {
    const implied = IMPLIED_LENGTH[schema.pattern ?? ""] ?? IMPLIED_LENGTH[`format:${schema.format}`];
    if (implied !== undefined) schema.maxLength = implied;
  }
  Object.values(node).forEach(walk);
}

type Doc = {
  paths?: Record<string, Record<string, { parameters?: { name?: string; schema?: object }[] }>>;
  components?: { schemas?: Record<string, Schema> };
};

/** Writes the bounds into the built document, in place. */
export function withBounds(doc: Doc): void {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      for (const parameter of op.parameters ?? []) {
        const bounds = parameter.name ? PARAMETERS[parameter.name] : undefined;
        if (bounds && parameter.schema) Object.assign(parameter.schema, bounds);
      }
    }
  }
  for (const [[name, ...path], bounds] of FIELDS) {
    const field = path.reduce<Schema | undefined>(
      (schema, key) => schema?.properties?.[key],
      doc.components?.schemas?.[name],
    );
    if (!field) throw new Error(`openapi-bounds: no field ${[name, ...path].join(".")} in the document`);
    Object.assign(field, bounds);
  }
  walk(doc);
}
