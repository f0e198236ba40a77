import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: ["node_modules/**", ".next/**", "server/generated/**", "data/**", "e2e/screenshots/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
];

export default config;
