import { openApiDocument } from "./server/api/openapi";
console.log(JSON.stringify(openApiDocument(), null, 1));
