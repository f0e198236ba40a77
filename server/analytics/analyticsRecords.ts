// What the analytics of /v1 answer, as records (their schemas make the API's document), and
// the per-code query's own parameter.
import { z } from "zod";

const count = z.number().int();
const breakdown = <K extends string>(key: K) =>
  z.array(z.object({ [key]: z.string(), scans: count } as Record<K, z.ZodString> & { scans: typeof count }));

export const codeAnalyticsRecord = z
  .object({
    code: z.string(),
    from: z.string(),
    to: z.string(),
    tz: z.string().meta({ description: "The time zone of the days and hours (`tz`, default UTC)." }),
    total_scans: count,
    unique_scans: count,
    daily: z
      .array(z.object({ date: z.string(), scans: count, unique_scans: count }))
      .optional()
      .meta({ description: "Every day of the range in `tz`, zeros included (without `granularity=hour`)." }),
    hourly: z
      .array(
        z.object({
          hour: z.string().meta({
            description: "Start of the hour, ISO 8601 with the zone's offset then (2026-03-29T03:00:00+02:00).",
          }),
          scans: count,
          unique_scans: count,
        }),
      )
      .optional()
      .meta({
        description:
          "Every hour of the range in `tz`, zeros included (with `granularity=hour`): 23 or 25 on days the clocks change.",
      }),
    countries: breakdown("country"),
    devices: breakdown("device"),
    operating_systems: breakdown("os"),
    browsers: breakdown("browser"),
  })
  .meta({ id: "CodeAnalytics" });
export type CodeAnalytics = z.infer<typeof codeAnalyticsRecord>;

export const analyticsSummaryRecord = z
  .object({
    from: z.string(),
    to: z.string(),
    tz: z.string().meta({ description: "The time zone of the days (`tz`, default UTC)." }),
    total_scans: count,
    unique_scans: count,
    codes: z.array(z.object({ code: z.string(), name: z.string(), total_scans: count, unique_scans: count })),
  })
  .meta({ id: "AnalyticsSummary" });
export type AnalyticsSummary = z.infer<typeof analyticsSummaryRecord>;

/** The per-code analytics query: `granularity` (day or hour) besides the range. */
export const codeAnalyticsQuery = z.object({
  granularity: z
    .string()
    .meta({
      enum: ["day", "hour"],
      description: "`day` (default): `daily`; `hour`: `hourly` instead, for ranges of at most 7 days.",
    })
    .optional(),
});
