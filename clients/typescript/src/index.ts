export {
  createClient,
  unwrap,
  type Client,
  type ClientOptions,
  type RetryOptions,
  type StaticQrCode,
  type DynamicQrCode,
  type Webhook,
  type AnalyticsSummary,
  type CodeAnalytics,
} from "./client";
export type { BundleBody, BundleCounts, BundleImport } from "./bundle";
export * from "./errors";
export type { components, paths, operations } from "./schema";
