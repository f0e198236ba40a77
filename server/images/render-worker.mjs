// The image pool's thread entry (server/images/pool.ts). A worker does not inherit the main
// thread's tsx loader: register it here, then hand piscina the TypeScript task.
import { register } from "tsx/esm/api";

register();
const task = await import("./render-task.ts");

export default task.default;
export const check = task.check;
