import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    // One configuration (server/platform/env.ts): nothing else in the app reads the environment.
    files: ["server/**/*.ts", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "trpc/**/*.{ts,tsx}", "proxy.ts"],
    ignores: ["server/platform/env.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read the configuration from server/platform/env.ts" },
      ],
    },
  },
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      "server/generated/**",
      "data/**",
      "e2e/screenshots/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
];

export default config;
