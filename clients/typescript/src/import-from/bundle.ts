// The planned codes as a bundle (docs/BUNDLE.md): POST /v1/bundle takes them all or nothing,
// keeps each `created_at`, and skips a code this library already holds with the same
// `created_at`, so a link's line must be the same on every run: one whose creation time the
// export does not give (or gives unreadable) gets 0, the epoch, whatever else the export holds.
import type { PlannedCode } from "./plan";

export type BundleText = {
  text: string;
  /** The planned code of each bundle line (index: the line's number), for a refusal's line. */
  codeAt: (PlannedCode | null)[];
};

export function bundleOf(codes: PlannedCode[]): BundleText {
  const domains = [...new Set(codes.flatMap((c) => (c.item.domain ? [c.item.domain] : [])))];
  const lines = [
    JSON.stringify({ type: "bundle", version: 1 }),
    ...domains.map((domain) => JSON.stringify({ type: "domain", domain })),
    ...codes.map((c) =>
      JSON.stringify({
        type: "dynamic",
        code: c.code,
        domain: c.item.domain ?? null,
        destination_url: c.item.destination_url,
        name: c.item.name,
        metadata: c.item.metadata,
        external_id: c.item.external_id,
        created_at: c.createdAt ?? 0,
      }),
    ),
  ];
  return { text: `${lines.join("\n")}\n`, codeAt: [null, null, ...domains.map(() => null), ...codes] };
}
